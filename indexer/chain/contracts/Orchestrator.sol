// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Escrow} from "./Escrow.sol";
import {UnifiedPaymentVerifier} from "./UnifiedPaymentVerifier.sol";

/// @notice Runs intents against one escrow: a taker signals one (locking part of a deposit until
/// an expiry), then it ends in exactly one way: fulfilled by a witness's attestation, released by
/// the maker by hand, or cancelled (by its owner, or by anyone once expired). An intent is
/// forgotten when it ends, which is what makes a second fulfilment revert.
///
/// Signalling takes the protocol's SignalIntentParams. An intent needs the gating service's
/// EIP-712 signature over its terms, its caller and an expiry, each signature good for one intent,
/// so nobody can lock a maker's liquidity the gating service did not approve; its rate (fiat per
/// USDC, 1e18, as the escrow's floors are) must be at or above the deposit's floor for its payment
/// method and currency. At the end the released
/// amount pays the protocol fee (feeBps of it) and the referrer's fee (a 1e18 fraction of it, set
/// when signalled); `to` receives the rest.
///
/// An intent may be extended while it is open and unexpired: its expiry (and its escrow lock's) moves
/// later, never past five days from its signal. Only the intent guardian in force when it was
/// signalled may extend it, paying the extension fee in the extension token each time; an intent
/// signalled while no guardian was set cannot be extended.
contract Orchestrator is Ownable, EIP712 {
    using SafeERC20 for IERC20;

    /// @notice The protocol's shape. `paymentProof` is the ABI-encoded PaymentAttestation the
    /// attestation service returns, unchanged. No verifier here reads `verificationData`, and with
    /// no post-intent hooks nothing reads `postIntentHookData`.
    struct FulfillIntentParams {
        bytes paymentProof;
        bytes32 intentHash;
        bytes verificationData;
        bytes postIntentHookData;
    }

    /// @notice The protocol's shape. `escrow` must be this orchestrator's escrow; post-intent hooks
    /// are not supported, so `postIntentHook` must be zero and `data` is ignored.
    struct SignalIntentParams {
        address escrow;
        uint256 depositId;
        uint256 amount;
        address to;
        bytes32 paymentMethod;
        bytes32 fiatCurrency;
        uint256 conversionRate;
        address referrer;
        uint256 referrerFee;
        bytes gatingServiceSignature;
        uint256 signatureExpiration;
        address postIntentHook;
        bytes data;
    }

    struct Intent {
        address owner;
        address to;
        uint256 depositId;
        uint256 amount;
        uint256 timestamp;
        uint256 expiryTime;
        bytes32 paymentMethod;
        bytes32 fiatCurrency;
        uint256 conversionRate;
        /// @dev The deposit's payee for the method when signalled, so a later change cannot redirect a paid intent.
        bytes32 payeeDetails;
        address referrer;
        uint256 referrerFee;
    }

    bytes32 public constant SIGNAL_INTENT_TYPEHASH = keccak256(
        "SignalIntent(address owner,address escrow,uint256 depositId,uint256 amount,address to,bytes32 paymentMethod,bytes32 fiatCurrency,uint256 conversionRate,address referrer,uint256 referrerFee,uint256 signatureExpiration)"
    );
    uint256 public constant PRECISE_UNIT = 1e18;
    /// @notice A referrer takes at most a tenth of what an intent releases.
    uint256 public constant MAX_REFERRER_FEE = 1e17;
    /// @notice The protocol takes at most a tenth of what an intent releases.
    uint256 public constant MAX_PROTOCOL_FEE_BPS = 1000;
    /// @notice No extension moves an intent's expiry past this long after its signal.
    uint256 public constant MAX_INTENT_LIFETIME = 5 days;

    Escrow public immutable escrow;
    UnifiedPaymentVerifier public immutable verifier;
    uint256 public immutable intentExpirationPeriod;

    /// @notice Counts signalled intents; it salts the hash so that no two intents share one.
    uint256 public intentCount;
    mapping(bytes32 => Intent) private intents;
    /// @notice The key whose signature lets an intent be signalled.
    address public gatingService;
    /// @notice Digests of the gating signatures already used: each lets one intent through.
    mapping(bytes32 => bool) public gatingSignatureUsed;
    uint256 public protocolFeeBps;
    address public protocolFeeRecipient;
    /// @notice Who may extend the intents signalled from now on; zero: they cannot be extended.
    address public intentGuardian;
    /// @notice The guardian in force when each open intent was signalled. Kept beside the intents
    /// rather than in Intent so that getIntent answers in the same shape as before extensions.
    mapping(bytes32 => address) public intentGuardianOf;
    /// @notice The guardian pays `extensionFee` of this token to `extensionFeeRecipient` per extension.
    IERC20 public extensionToken;
    uint256 public extensionFee;
    address public extensionFeeRecipient;

    event IntentSignaled(
        bytes32 indexed intentHash,
        address indexed escrow,
        uint256 indexed depositId,
        bytes32 paymentMethod,
        address owner,
        address to,
        uint256 amount,
        bytes32 fiatCurrency,
        uint256 conversionRate,
        uint256 timestamp
    );
    event IntentFulfilled(
        bytes32 indexed intentHash, address indexed fundsTransferredTo, uint256 amount, bool isManualRelease
    );
    event IntentPruned(bytes32 indexed intentHash);
    event ProtocolFeePaid(bytes32 indexed intentHash, address indexed recipient, uint256 amount);
    event ReferrerFeePaid(bytes32 indexed intentHash, address indexed referrer, uint256 amount);
    event GatingServiceUpdated(address indexed gatingService);
    event ProtocolFeeUpdated(uint256 feeBps, address indexed recipient);
    event IntentGuardianUpdated(address indexed intentGuardian);
    event ExtensionFeeUpdated(address indexed token, uint256 fee, address indexed recipient);
    event IntentExtended(bytes32 indexed intentHash, uint256 newExpiryTime, uint256 additionalTime);

    error ZeroAddress();
    error ZeroValue();
    error IntentNotFound(bytes32 intentHash);
    error UnauthorizedCaller(address caller);
    error IntentNotExpired(bytes32 intentHash, uint256 expiryTime);
    error PaymentMethodNotAccepted(uint256 depositId, bytes32 paymentMethod);
    error CurrencyNotAccepted(uint256 depositId, bytes32 paymentMethod, bytes32 currency);
    error RateBelowMinimum(uint256 conversionRate, uint256 minConversionRate);
    error UnknownEscrow(address escrow);
    error PostIntentHookNotSupported(address hook);
    error GatingSignatureExpired(uint256 signatureExpiration);
    error GatingSignatureAlreadyUsed(bytes32 digest);
    error InvalidGatingSignature(address signer);
    error ReferrerFeeTooHigh(uint256 referrerFee, uint256 max);
    error ReferrerRequired();
    error ProtocolFeeTooHigh(uint256 feeBps, uint256 max);
    error IntentGuardianNotSet(bytes32 intentHash);
    error NotIntentGuardian(address caller, address intentGuardian);
    error IntentAlreadyExpired(bytes32 intentHash, uint256 expiryTime);
    error IntentLifetimeExceeded(bytes32 intentHash, uint256 additionalTime, uint256 latestExpiryTime);
    error ExtensionFeeNotPayable(address payer, uint256 fee, uint256 balance, uint256 allowance);

    constructor(
        address initialOwner,
        Escrow escrow_,
        UnifiedPaymentVerifier verifier_,
        uint256 intentExpirationPeriod_,
        address gatingService_
    ) Ownable(initialOwner) EIP712("Orchestrator", "1") {
        if (address(escrow_) == address(0) || address(verifier_) == address(0)) revert ZeroAddress();
        if (gatingService_ == address(0)) revert ZeroAddress();
        if (intentExpirationPeriod_ == 0) revert ZeroValue();
        escrow = escrow_;
        verifier = verifier_;
        intentExpirationPeriod = intentExpirationPeriod_;
        gatingService = gatingService_;
        emit GatingServiceUpdated(gatingService_);
    }

    function setGatingService(address newGatingService) external onlyOwner {
        if (newGatingService == address(0)) revert ZeroAddress();
        gatingService = newGatingService;
        emit GatingServiceUpdated(newGatingService);
    }

    /// @notice Zero bps disables the fee; a fee needs somewhere to go.
    function setProtocolFee(uint256 feeBps, address recipient) external onlyOwner {
        if (feeBps > MAX_PROTOCOL_FEE_BPS) revert ProtocolFeeTooHigh(feeBps, MAX_PROTOCOL_FEE_BPS);
        if (feeBps > 0 && recipient == address(0)) revert ZeroAddress();
        protocolFeeBps = feeBps;
        protocolFeeRecipient = recipient;
        emit ProtocolFeeUpdated(feeBps, recipient);
    }

    /// @notice Applies to intents signalled from now on; those already open keep the guardian they were signalled with.
    function setIntentGuardian(address newIntentGuardian) external onlyOwner {
        intentGuardian = newIntentGuardian;
        emit IntentGuardianUpdated(newIntentGuardian);
    }

    /// @notice Zero fee makes extensions free; a fee needs a token and somewhere to go. The
    /// recipient is its own setting: the protocol fee's may be unset while extensions are charged.
    function setExtensionFee(IERC20 token, uint256 fee, address recipient) external onlyOwner {
        if (fee > 0 && (address(token) == address(0) || recipient == address(0))) revert ZeroAddress();
        extensionToken = token;
        extensionFee = fee;
        extensionFeeRecipient = recipient;
        emit ExtensionFeeUpdated(address(token), fee, recipient);
    }

    function signalIntent(SignalIntentParams calldata params) external returns (bytes32 intentHash) {
        if (params.escrow != address(escrow)) revert UnknownEscrow(params.escrow);
        if (params.postIntentHook != address(0)) revert PostIntentHookNotSupported(params.postIntentHook);
        if (params.to == address(0)) revert ZeroAddress();
        if (params.conversionRate == 0) revert ZeroValue();
        if (params.referrerFee > MAX_REFERRER_FEE) revert ReferrerFeeTooHigh(params.referrerFee, MAX_REFERRER_FEE);
        if (params.referrerFee > 0 && params.referrer == address(0)) revert ReferrerRequired();
        _spendGatingSignature(params);

        bytes32 payee = escrow.payeeDetails(params.depositId, params.paymentMethod);
        if (payee == bytes32(0)) revert PaymentMethodNotAccepted(params.depositId, params.paymentMethod);
        uint256 minRate = escrow.minConversionRate(params.depositId, params.paymentMethod, params.fiatCurrency);
        if (minRate == 0) revert CurrencyNotAccepted(params.depositId, params.paymentMethod, params.fiatCurrency);
        if (params.conversionRate < minRate) revert RateBelowMinimum(params.conversionRate, minRate);

        intentHash = keccak256(abi.encode(block.chainid, address(this), ++intentCount));
        uint256 expiryTime = block.timestamp + intentExpirationPeriod;
        intents[intentHash] = Intent({
            owner: msg.sender,
            to: params.to,
            depositId: params.depositId,
            amount: params.amount,
            timestamp: block.timestamp,
            expiryTime: expiryTime,
            paymentMethod: params.paymentMethod,
            fiatCurrency: params.fiatCurrency,
            conversionRate: params.conversionRate,
            payeeDetails: payee,
            referrer: params.referrer,
            referrerFee: params.referrerFee
        });
        address guardian = intentGuardian;
        if (guardian != address(0)) intentGuardianOf[intentHash] = guardian;
        escrow.lockFunds(params.depositId, intentHash, params.amount, expiryTime);
        emit IntentSignaled(
            intentHash,
            address(escrow),
            params.depositId,
            params.paymentMethod,
            msg.sender,
            params.to,
            params.amount,
            params.fiatCurrency,
            params.conversionRate,
            block.timestamp
        );
    }

    /// @notice Anyone may relay the proof: the witnesses' signatures are the authority. An expired
    /// intent nobody has cancelled yet may still be fulfilled: the verifier bounds when the payment
    /// was made, not when it is proved.
    function fulfillIntent(FulfillIntentParams calldata params) external {
        Intent memory intent = _takeIntent(params.intentHash);
        uint256 released = verifier.verifyPayment(
            params.paymentProof,
            params.intentHash,
            UnifiedPaymentVerifier.IntentTerms({
                amount: intent.amount,
                paymentMethod: intent.paymentMethod,
                fiatCurrency: intent.fiatCurrency,
                payeeDetails: intent.payeeDetails,
                conversionRate: intent.conversionRate,
                signalTimestamp: intent.timestamp,
                expiryTime: intent.expiryTime
            })
        );
        _payOut(params.intentHash, intent, released, false);
    }

    /// @notice The maker (or its delegate) confirms the fiat arrived and pays the whole intent.
    function releaseFundsToPayer(bytes32 intentHash) external {
        Intent memory intent = _takeIntent(intentHash);
        Escrow.Deposit memory deposit = escrow.getDeposit(intent.depositId);
        if (msg.sender != deposit.depositor && msg.sender != deposit.delegate) {
            revert UnauthorizedCaller(msg.sender);
        }
        _payOut(intentHash, intent, intent.amount, true);
    }

    /// @notice The owner may give up an intent at any time; anyone may clear it once expired.
    function cancelIntent(bytes32 intentHash) external {
        Intent memory intent = _takeIntent(intentHash);
        if (msg.sender != intent.owner && block.timestamp < intent.expiryTime) {
            revert IntentNotExpired(intentHash, intent.expiryTime);
        }
        escrow.unlockFunds(intent.depositId, intentHash);
        emit IntentPruned(intentHash);
    }

    /// @notice Moves an open, unexpired intent's expiry `additionalTime` later, in the orchestrator
    /// and in the escrow's lock alike, so a payment made before the new expiry still proves it and
    /// nobody but its owner may cancel it before then. The intent's guardian pays the extension fee.
    function extendIntentExpiry(bytes32 intentHash, uint256 additionalTime) external {
        Intent storage intent = intents[intentHash];
        if (intent.owner == address(0)) revert IntentNotFound(intentHash);
        address guardian = intentGuardianOf[intentHash];
        if (guardian == address(0)) revert IntentGuardianNotSet(intentHash);
        if (msg.sender != guardian) revert NotIntentGuardian(msg.sender, guardian);
        if (additionalTime == 0) revert ZeroValue();
        uint256 expiryTime = intent.expiryTime;
        if (block.timestamp >= expiryTime) revert IntentAlreadyExpired(intentHash, expiryTime);
        // Compared as a difference, so no additionalTime overflows the sum.
        uint256 latest = intent.timestamp + MAX_INTENT_LIFETIME;
        if (expiryTime >= latest || additionalTime > latest - expiryTime) {
            revert IntentLifetimeExceeded(intentHash, additionalTime, latest);
        }
        uint256 fee = extensionFee;
        IERC20 token = extensionToken;
        if (fee > 0) {
            uint256 balance = token.balanceOf(guardian);
            uint256 allowance = token.allowance(guardian, address(this));
            if (balance < fee || allowance < fee) revert ExtensionFeeNotPayable(guardian, fee, balance, allowance);
        }

        uint256 newExpiryTime = expiryTime + additionalTime;
        intent.expiryTime = newExpiryTime;
        escrow.extendLockExpiry(intent.depositId, intentHash, newExpiryTime);
        emit IntentExtended(intentHash, newExpiryTime, additionalTime);
        if (fee > 0) token.safeTransferFrom(guardian, extensionFeeRecipient, fee);
    }

    function getIntent(bytes32 intentHash) external view returns (Intent memory) {
        Intent memory intent = intents[intentHash];
        if (intent.owner == address(0)) revert IntentNotFound(intentHash);
        return intent;
    }

    /// @dev The escrow pays the released amount here; the fees go out of it and `to` gets the rest.
    function _payOut(bytes32 intentHash, Intent memory intent, uint256 released, bool isManualRelease) private {
        IERC20 token = escrow.getDeposit(intent.depositId).token;
        escrow.unlockAndTransferFunds(intent.depositId, intentHash, released, address(this));
        uint256 protocolFee = (released * protocolFeeBps) / 10_000;
        uint256 referrerFee = (released * intent.referrerFee) / PRECISE_UNIT;
        uint256 net = released - protocolFee - referrerFee;
        if (protocolFee > 0) {
            emit ProtocolFeePaid(intentHash, protocolFeeRecipient, protocolFee);
            token.safeTransfer(protocolFeeRecipient, protocolFee);
        }
        if (referrerFee > 0) {
            emit ReferrerFeePaid(intentHash, intent.referrer, referrerFee);
            token.safeTransfer(intent.referrer, referrerFee);
        }
        emit IntentFulfilled(intentHash, intent.to, net, isManualRelease);
        if (net > 0) token.safeTransfer(intent.to, net);
    }

    /// @dev The signature binds the caller too: a copy seen in the mempool signals nothing for anyone else.
    function _spendGatingSignature(SignalIntentParams calldata params) private {
        if (block.timestamp > params.signatureExpiration) revert GatingSignatureExpired(params.signatureExpiration);
        bytes32 digest = _hashTypedDataV4(
            keccak256(
                abi.encode(
                    SIGNAL_INTENT_TYPEHASH,
                    msg.sender,
                    params.escrow,
                    params.depositId,
                    params.amount,
                    params.to,
                    params.paymentMethod,
                    params.fiatCurrency,
                    params.conversionRate,
                    params.referrer,
                    params.referrerFee,
                    params.signatureExpiration
                )
            )
        );
        if (gatingSignatureUsed[digest]) revert GatingSignatureAlreadyUsed(digest);
        (address signer, ECDSA.RecoverError failure,) = ECDSA.tryRecover(digest, params.gatingServiceSignature);
        if (failure != ECDSA.RecoverError.NoError || signer != gatingService) revert InvalidGatingSignature(signer);
        gatingSignatureUsed[digest] = true;
    }

    /// @dev Deleting before the external calls keeps a reentering call from ending it twice.
    function _takeIntent(bytes32 intentHash) private returns (Intent memory intent) {
        intent = intents[intentHash];
        if (intent.owner == address(0)) revert IntentNotFound(intentHash);
        delete intents[intentHash];
        delete intentGuardianOf[intentHash];
    }
}
