// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Escrow} from "./Escrow.sol";
import {UnifiedPaymentVerifier} from "./UnifiedPaymentVerifier.sol";

/// @notice Runs intents against one escrow: a taker signals one (locking part of a deposit until
/// an expiry), then it ends in exactly one way: fulfilled by a witness's attestation, released by
/// the maker by hand, or cancelled (by its owner, or by anyone once expired). An intent is
/// forgotten when it ends, which is what makes a second fulfilment revert.
contract Orchestrator {
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
    }

    Escrow public immutable escrow;
    UnifiedPaymentVerifier public immutable verifier;
    uint256 public immutable intentExpirationPeriod;

    /// @notice Counts signalled intents; it salts the hash so that no two intents share one.
    uint256 public intentCount;
    mapping(bytes32 => Intent) private intents;

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

    error ZeroAddress();
    error ZeroValue();
    error IntentNotFound(bytes32 intentHash);
    error UnauthorizedCaller(address caller);
    error IntentNotExpired(bytes32 intentHash, uint256 expiryTime);
    error PaymentMethodNotAccepted(uint256 depositId, bytes32 paymentMethod);

    constructor(Escrow escrow_, UnifiedPaymentVerifier verifier_, uint256 intentExpirationPeriod_) {
        if (address(escrow_) == address(0) || address(verifier_) == address(0)) revert ZeroAddress();
        if (intentExpirationPeriod_ == 0) revert ZeroValue();
        escrow = escrow_;
        verifier = verifier_;
        intentExpirationPeriod = intentExpirationPeriod_;
    }

    function signalIntent(
        uint256 depositId,
        uint256 amount,
        address to,
        bytes32 paymentMethod,
        bytes32 fiatCurrency,
        uint256 conversionRate
    ) external returns (bytes32 intentHash) {
        if (to == address(0)) revert ZeroAddress();
        if (conversionRate == 0) revert ZeroValue();
        bytes32 payee = escrow.payeeDetails(depositId, paymentMethod);
        if (payee == bytes32(0)) revert PaymentMethodNotAccepted(depositId, paymentMethod);
        intentHash = keccak256(abi.encode(block.chainid, address(this), ++intentCount));
        uint256 expiryTime = block.timestamp + intentExpirationPeriod;
        intents[intentHash] = Intent({
            owner: msg.sender,
            to: to,
            depositId: depositId,
            amount: amount,
            timestamp: block.timestamp,
            expiryTime: expiryTime,
            paymentMethod: paymentMethod,
            fiatCurrency: fiatCurrency,
            conversionRate: conversionRate,
            payeeDetails: payee
        });
        escrow.lockFunds(depositId, intentHash, amount, expiryTime);
        emit IntentSignaled(
            intentHash,
            address(escrow),
            depositId,
            paymentMethod,
            msg.sender,
            to,
            amount,
            fiatCurrency,
            conversionRate,
            block.timestamp
        );
    }

    /// @notice Anyone may relay the attestation: the witness's signature is the authority.
    function fulfillIntent(UnifiedPaymentVerifier.PaymentAttestation calldata attestation) external {
        bytes32 intentHash = attestation.intentHash;
        Intent memory intent = _takeIntent(intentHash);
        verifier.verifyPayment(
            attestation,
            UnifiedPaymentVerifier.IntentTerms({
                amount: intent.amount,
                paymentMethod: intent.paymentMethod,
                fiatCurrency: intent.fiatCurrency,
                payeeDetails: intent.payeeDetails,
                conversionRate: intent.conversionRate,
                signalTimestamp: intent.timestamp
            })
        );
        escrow.unlockAndTransferFunds(intent.depositId, intentHash, attestation.releaseAmount, intent.to);
        emit IntentFulfilled(intentHash, intent.to, attestation.releaseAmount, false);
    }

    /// @notice The maker (or its delegate) confirms the fiat arrived and pays the whole intent.
    function releaseFundsToPayer(bytes32 intentHash) external {
        Intent memory intent = _takeIntent(intentHash);
        Escrow.Deposit memory deposit = escrow.getDeposit(intent.depositId);
        if (msg.sender != deposit.depositor && msg.sender != deposit.delegate) {
            revert UnauthorizedCaller(msg.sender);
        }
        escrow.unlockAndTransferFunds(intent.depositId, intentHash, intent.amount, intent.to);
        emit IntentFulfilled(intentHash, intent.to, intent.amount, true);
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

    function getIntent(bytes32 intentHash) external view returns (Intent memory) {
        Intent memory intent = intents[intentHash];
        if (intent.owner == address(0)) revert IntentNotFound(intentHash);
        return intent;
    }

    /// @dev Deleting before the external calls keeps a reentering call from ending it twice.
    function _takeIntent(bytes32 intentHash) private returns (Intent memory intent) {
        intent = intents[intentHash];
        if (intent.owner == address(0)) revert IntentNotFound(intentHash);
        delete intents[intentHash];
    }
}
