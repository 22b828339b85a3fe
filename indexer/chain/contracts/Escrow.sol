// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice Holds makers' deposits. The orchestrator locks part of a deposit for each intent and
/// later either returns it to the deposit or pays it out. Events carry Base's exact signatures so
/// one decoder reads both chains.
///
/// The maker, not the taker, prices a deposit: each payment method accepts the fiat currencies the
/// maker lists, each with a minimum conversion rate, and an intent below that floor or in a
/// currency not listed reverts. A rate manager the maker names may move those floors, only inside
/// the bounds the maker set for each currency.
///
/// A rate is fiat per USDC: the fiat, in whole units of the currency, that buys one whole USDC,
/// scaled by 1e18 (150 JPY per USDC is 150e18, 0.92 EUR per USDC is 0.92e18). For an intent of
/// `amount` USDC base units the attestation service holds the buyer to amount * rate / 1e22
/// cents, rounded up. The inverse (USDC per fiat unit, 1e18 / 150 for JPY) would sell the deposit
/// at about 1/22,500 of its price.
///
/// Makers stake behind their deposits (docs/chargebacks.md): a maker's stake backs every deposit of
/// theirs with dispute protection on. When a fiat payment such a deposit settled is reversed on its
/// rail afterwards, the dispute arbiter has the stake compensate it, and the escrow records the
/// chargeback on chain: what was claimed, what the stake paid (less when it is short), to whom.
contract Escrow is Ownable {
    using SafeERC20 for IERC20;

    struct Range {
        uint256 min;
        uint256 max;
    }

    struct Deposit {
        address depositor;
        address delegate;
        IERC20 token;
        Range intentAmountRange;
        uint256 available; // may be locked by a new intent or withdrawn
        uint256 locked; // held for open intents
        /// @dev Moves the deposit's minimum rates within the maker's bounds; zero when none.
        address rateManager;
        /// @dev Whitelist-gated: the gating service signs intents on it only for takers the maker allowed.
        bool isPrivate;
        bool disputeProtectionEnabled;
        /// @dev The maker releases by its seller credential once the payment is seen; carried for the off-chain side.
        bool sellerAutomatedRelease;
    }

    /// @notice Ids start at 1, so a zero depositor marks a deposit that does not exist.
    uint256 public depositCount;
    mapping(uint256 => Deposit) private deposits;
    mapping(uint256 => mapping(bytes32 => uint256)) public lockedAmount;
    /// @notice When each lock's intent expires, as the orchestrator signalled or extended it.
    mapping(uint256 => mapping(bytes32 => uint256)) public lockExpiry;
    /// @notice The hash of the maker's payee id for each payment method a deposit accepts; zero where it accepts none.
    mapping(uint256 => mapping(bytes32 => bytes32)) public payeeDetails;
    /// @notice depositId => paymentMethod => currency => the lowest conversion rate (fiat per USDC, 1e18) an intent may take; zero where the currency is not accepted.
    mapping(uint256 => mapping(bytes32 => mapping(bytes32 => uint256))) public minConversionRate;
    /// @notice depositId => paymentMethod => currency => where the rate manager may move that minimum; max zero where it may not.
    mapping(uint256 => mapping(bytes32 => mapping(bytes32 => Range))) private rateBounds;
    address public orchestrator;
    /// @notice A rest at or below this, with no intent open on the deposit, is swept to the dust
    /// recipient and the deposit closed (as the protocol's escrow does); zero sweeps nothing.
    uint256 public dustThreshold;
    address public dustRecipient;
    uint256 public constant MAX_DUST_THRESHOLD = 1e6;

    /// @notice What a settled intent leaves for a later chargeback: the deposit it settled from, its
    /// maker, what it released, and whether the deposit had dispute protection when it settled.
    struct Settlement {
        uint256 depositId;
        address maker;
        uint256 releasedAmount;
        bool disputeProtected;
        bool compensated;
    }

    /// @notice Each maker's stake, in the escrow's one stake token; it backs all their protected deposits.
    mapping(address => uint256) public stakeOf;
    IERC20 public stakeToken;
    /// @notice Who may record a chargeback (the platform's dispute desk); zero: nobody.
    address public disputeArbiter;
    /// @notice Where the compensation goes: the account the reversed payment is made good from.
    address public chargebackRecipient;
    mapping(bytes32 => Settlement) public settlements;
    /// @notice keccak256 of every dispute id already compensated: one dispute is paid once.
    mapping(bytes32 => bool) public disputeCompensated;

    event DepositReceived(
        uint256 indexed depositId,
        address indexed depositor,
        IERC20 indexed token,
        uint256 amount,
        Range intentAmountRange,
        address delegate,
        address intentGuardian
    );
    event DepositFundsAdded(uint256 indexed depositId, address indexed depositor, uint256 amount);
    event DepositWithdrawn(uint256 indexed depositId, address indexed depositor, uint256 amount);
    event DepositClosed(uint256 depositId, address depositor);
    event DustCollected(uint256 indexed depositId, uint256 amount, address indexed recipient);
    event DustSettingsUpdated(uint256 threshold, address recipient);
    event FundsLocked(uint256 indexed depositId, bytes32 indexed intentHash, uint256 amount, uint256 expiryTime);
    event FundsUnlocked(uint256 indexed depositId, bytes32 indexed intentHash, uint256 amount);
    event FundsLockExtended(uint256 indexed depositId, bytes32 indexed intentHash, uint256 expiryTime);
    event FundsUnlockedAndTransferred(
        uint256 indexed depositId,
        bytes32 indexed intentHash,
        uint256 unlockedAmount,
        uint256 transferredAmount,
        address to
    );
    event OrchestratorUpdated(address indexed orchestrator);
    event DepositPaymentMethodSet(uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 payeeDetails);
    event DepositCurrencyAdded(
        uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 indexed currency, uint256 minConversionRate
    );
    event DepositCurrencyRemoved(uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 indexed currency);
    event DepositMinConversionRateUpdated(
        uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 indexed currency, uint256 newMinConversionRate
    );
    event DepositRateManagerSet(uint256 indexed depositId, address indexed rateManager);
    event DepositRateBoundsSet(
        uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 indexed currency, Range bounds
    );
    event DepositIntentAmountRangeUpdated(uint256 indexed depositId, Range intentAmountRange);
    event DepositPrivacyUpdated(uint256 indexed depositId, bool isPrivate);
    event DepositDisputeProtectionUpdated(uint256 indexed depositId, bool enabled);
    event DepositSellerAutomatedReleaseUpdated(uint256 indexed depositId, bool enabled);
    event MakerStaked(address indexed maker, uint256 amount);
    event MakerStakeWithdrawn(address indexed maker, uint256 amount);
    event ChargebackSettingsUpdated(IERC20 stakeToken, address indexed disputeArbiter, address indexed recipient);
    /// @notice A reversed fiat payment the maker's stake compensated: `compensatedAmount` is what the
    /// stake paid, at most `claimedAmount` (less when the stake was short).
    event ChargebackCompensated(
        bytes32 indexed intentHash,
        bytes32 indexed disputeKey,
        uint256 indexed depositId,
        string disputeId,
        address maker,
        uint256 claimedAmount,
        uint256 compensatedAmount,
        address recipient
    );

    error ZeroAddress();
    error ZeroValue();
    error InvalidRange(uint256 min, uint256 max);
    error AmountBelowMin(uint256 amount, uint256 min);
    error AmountAboveMax(uint256 amount, uint256 max);
    error DepositNotFound(uint256 depositId);
    error UnauthorizedCaller(address caller);
    error InsufficientDepositLiquidity(uint256 depositId, uint256 available, uint256 required);
    error IntentAlreadyLocked(uint256 depositId, bytes32 intentHash);
    error IntentNotFound(uint256 depositId, bytes32 intentHash);
    error TransferExceedsLocked(uint256 transferAmount, uint256 lockedAmount);
    error NothingToWithdraw(uint256 depositId);
    error PaymentMethodNotAccepted(uint256 depositId, bytes32 paymentMethod);
    error CurrencyNotAccepted(uint256 depositId, bytes32 paymentMethod, bytes32 currency);
    error RateOutOfBounds(uint256 rate, uint256 min, uint256 max);
    error IntentNotSettled(bytes32 intentHash);
    error DepositNotProtected(bytes32 intentHash);
    error ChargebackAlreadyCompensated(bytes32 intentHash);
    error DisputeAlreadyCompensated(string disputeId);
    error ClaimExceedsSettlement(uint256 claimed, uint256 released);
    error StakeExhausted(address maker);
    error InsufficientStake(uint256 available, uint256 required);

    modifier onlyOrchestrator() {
        if (msg.sender != orchestrator) revert UnauthorizedCaller(msg.sender);
        _;
    }

    constructor(address initialOwner) Ownable(initialOwner) {}

    /// @notice Set once the orchestrator is deployed: the two contracts refer to each other.
    function setOrchestrator(address newOrchestrator) external onlyOwner {
        if (newOrchestrator == address(0)) revert ZeroAddress();
        orchestrator = newOrchestrator;
        emit OrchestratorUpdated(newOrchestrator);
    }

    /// @notice The protocol owner's dust settings: at most 1 USDC, and a recipient whenever it sweeps.
    function setDust(uint256 threshold, address recipient) external onlyOwner {
        if (threshold > MAX_DUST_THRESHOLD) revert AmountAboveMax(threshold, MAX_DUST_THRESHOLD);
        if (threshold > 0 && recipient == address(0)) revert ZeroAddress();
        dustThreshold = threshold;
        dustRecipient = recipient;
        emit DustSettingsUpdated(threshold, recipient);
    }

    /// @notice The owner names the stake token, the dispute arbiter and where compensation goes.
    function setChargebackSettings(IERC20 token, address arbiter, address recipient) external onlyOwner {
        if (address(token) == address(0) || recipient == address(0)) revert ZeroAddress();
        stakeToken = token;
        disputeArbiter = arbiter;
        chargebackRecipient = recipient;
        emit ChargebackSettingsUpdated(token, arbiter, recipient);
    }

    /// @notice A maker adds to the stake behind their deposits.
    function stake(uint256 amount) external {
        if (amount == 0) revert ZeroValue();
        IERC20 token = stakeToken;
        if (address(token) == address(0)) revert ZeroAddress();
        stakeOf[msg.sender] += amount;
        emit MakerStaked(msg.sender, amount);
        token.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @notice A maker takes stake back. A stake withdrawn leaves less to compensate later chargebacks
    /// with; the platform reads the stake when it opens a dispute (docs/chargebacks.md).
    function withdrawStake(uint256 amount) external {
        uint256 staked = stakeOf[msg.sender];
        if (amount == 0) revert ZeroValue();
        if (amount > staked) revert InsufficientStake(staked, amount);
        stakeOf[msg.sender] = staked - amount;
        emit MakerStakeWithdrawn(msg.sender, amount);
        stakeToken.safeTransfer(msg.sender, amount);
    }

    /// @notice Records a chargeback on a settled intent of a protected deposit and has the maker's stake
    /// compensate it: the claim, up to what the intent released, once per intent and once per dispute id.
    /// A short stake pays what it holds (the event says how much); an empty one reverts StakeExhausted.
    function compensateChargeback(bytes32 intentHash, string calldata disputeId, uint256 claimedAmount) external {
        if (msg.sender != disputeArbiter || msg.sender == address(0)) revert UnauthorizedCaller(msg.sender);
        if (claimedAmount == 0) revert ZeroValue();
        Settlement storage settlement = settlements[intentHash];
        if (settlement.maker == address(0)) revert IntentNotSettled(intentHash);
        if (!settlement.disputeProtected) revert DepositNotProtected(intentHash);
        if (settlement.compensated) revert ChargebackAlreadyCompensated(intentHash);
        bytes32 disputeKey = keccak256(bytes(disputeId));
        if (disputeCompensated[disputeKey]) revert DisputeAlreadyCompensated(disputeId);
        if (claimedAmount > settlement.releasedAmount) revert ClaimExceedsSettlement(claimedAmount, settlement.releasedAmount);
        address maker = settlement.maker;
        uint256 staked = stakeOf[maker];
        if (staked == 0) revert StakeExhausted(maker);
        uint256 paid = claimedAmount < staked ? claimedAmount : staked;

        settlement.compensated = true;
        disputeCompensated[disputeKey] = true;
        stakeOf[maker] = staked - paid;
        address recipient = chargebackRecipient;
        emit ChargebackCompensated(
            intentHash, disputeKey, settlement.depositId, disputeId, maker, claimedAmount, paid, recipient
        );
        stakeToken.safeTransfer(recipient, paid);
    }

    /// @param intentGuardian Only announced in DepositReceived, for the shape Base's indexers
    /// expect; a deposit names no guardian of its own here: the orchestrator's intent guardian extends intents.
    function createDeposit(
        IERC20 token,
        uint256 amount,
        Range calldata intentAmountRange,
        address delegate,
        address intentGuardian
    ) external returns (uint256 depositId) {
        if (address(token) == address(0)) revert ZeroAddress();
        if (intentAmountRange.min == 0) revert ZeroValue();
        if (intentAmountRange.min > intentAmountRange.max) {
            revert InvalidRange(intentAmountRange.min, intentAmountRange.max);
        }
        if (amount < intentAmountRange.min) revert AmountBelowMin(amount, intentAmountRange.min);

        depositId = ++depositCount;
        deposits[depositId] = Deposit({
            depositor: msg.sender,
            delegate: delegate,
            token: token,
            intentAmountRange: intentAmountRange,
            available: amount,
            locked: 0,
            rateManager: address(0),
            isPrivate: false,
            disputeProtectionEnabled: false,
            sellerAutomatedRelease: false
        });
        emit DepositReceived(depositId, msg.sender, token, amount, intentAmountRange, delegate, intentGuardian);
        token.safeTransferFrom(msg.sender, address(this), amount);
    }

    function addFunds(uint256 depositId, uint256 amount) external {
        Deposit storage deposit = _ownDeposit(depositId);
        if (amount == 0) revert ZeroValue();
        deposit.available += amount;
        emit DepositFundsAdded(depositId, msg.sender, amount);
        deposit.token.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @notice Returns everything not locked. The deposit closes once nothing is locked either;
    /// otherwise it stays open to receive what its open intents give back.
    function withdrawDeposit(uint256 depositId) external {
        Deposit storage deposit = _ownDeposit(depositId);
        uint256 amount = deposit.available;
        bool closing = deposit.locked == 0;
        if (amount == 0 && !closing) revert NothingToWithdraw(depositId);
        IERC20 token = deposit.token;

        if (amount > 0) {
            deposit.available = 0;
            emit DepositWithdrawn(depositId, msg.sender, amount);
        }
        if (closing) {
            delete deposits[depositId];
            emit DepositClosed(depositId, msg.sender);
        }
        if (amount > 0) token.safeTransfer(msg.sender, amount);
    }

    function lockFunds(uint256 depositId, bytes32 intentHash, uint256 amount, uint256 expiryTime)
        external
        onlyOrchestrator
    {
        Deposit storage deposit = _existingDeposit(depositId);
        if (amount < deposit.intentAmountRange.min) revert AmountBelowMin(amount, deposit.intentAmountRange.min);
        if (amount > deposit.intentAmountRange.max) revert AmountAboveMax(amount, deposit.intentAmountRange.max);
        if (amount > deposit.available) {
            revert InsufficientDepositLiquidity(depositId, deposit.available, amount);
        }
        if (lockedAmount[depositId][intentHash] != 0) revert IntentAlreadyLocked(depositId, intentHash);

        deposit.available -= amount;
        deposit.locked += amount;
        lockedAmount[depositId][intentHash] = amount;
        lockExpiry[depositId][intentHash] = expiryTime;
        emit FundsLocked(depositId, intentHash, amount, expiryTime);
    }

    /// @notice The orchestrator extended the lock's intent: the lock expires when it does.
    function extendLockExpiry(uint256 depositId, bytes32 intentHash, uint256 expiryTime) external onlyOrchestrator {
        if (lockedAmount[depositId][intentHash] == 0) revert IntentNotFound(depositId, intentHash);
        lockExpiry[depositId][intentHash] = expiryTime;
        emit FundsLockExtended(depositId, intentHash, expiryTime);
    }

    /// @notice Gives an intent's lock back to its deposit.
    function unlockFunds(uint256 depositId, bytes32 intentHash) external onlyOrchestrator {
        uint256 amount = _releaseLock(depositId, intentHash);
        deposits[depositId].available += amount;
        emit FundsUnlocked(depositId, intentHash, amount);
    }

    /// @notice Pays `transferAmount` of an intent's lock to `to`; the rest goes back to the deposit.
    function unlockAndTransferFunds(uint256 depositId, bytes32 intentHash, uint256 transferAmount, address to)
        external
        onlyOrchestrator
    {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = _releaseLock(depositId, intentHash);
        if (transferAmount > amount) revert TransferExceedsLocked(transferAmount, amount);
        Deposit storage deposit = deposits[depositId];
        deposit.available += amount - transferAmount;
        // Kept for a chargeback: the deposit may close (or be swept) before the fiat payment is reversed.
        settlements[intentHash] = Settlement({
            depositId: depositId,
            maker: deposit.depositor,
            releasedAmount: transferAmount,
            disputeProtected: deposit.disputeProtectionEnabled,
            compensated: false
        });
        IERC20 token = deposit.token;
        emit FundsUnlockedAndTransferred(depositId, intentHash, amount, transferAmount, to);
        token.safeTransfer(to, transferAmount);
        _sweepDust(depositId, deposit, token);
    }

    /// @dev After a payment: a rest no intent can take any more (at or below the dust threshold,
    /// nothing locked) goes to the dust recipient and the deposit closes. An empty deposit stays.
    function _sweepDust(uint256 depositId, Deposit storage deposit, IERC20 token) private {
        uint256 rest = deposit.available;
        if (deposit.locked != 0 || rest == 0 || rest > dustThreshold) return;
        address depositor = deposit.depositor;
        address recipient = dustRecipient;
        delete deposits[depositId];
        emit DustCollected(depositId, rest, recipient);
        emit DepositClosed(depositId, depositor);
        token.safeTransfer(recipient, rest);
    }

    /// @notice Where a deposit is paid on one payment method: the hash of the maker's payee id there.
    /// Zero stops accepting the method; intents already signalled keep the payee they were given.
    function setPaymentMethod(uint256 depositId, bytes32 paymentMethod, bytes32 payee) external {
        _managedDeposit(depositId);
        payeeDetails[depositId][paymentMethod] = payee;
        emit DepositPaymentMethodSet(depositId, paymentMethod, payee);
    }

    /// @notice The maker's floor for one currency on one payment method; zero stops accepting the currency.
    function setCurrencyMinRate(uint256 depositId, bytes32 paymentMethod, bytes32 currency, uint256 minRate) external {
        _managedDeposit(depositId);
        if (payeeDetails[depositId][paymentMethod] == bytes32(0)) revert PaymentMethodNotAccepted(depositId, paymentMethod);
        uint256 current = minConversionRate[depositId][paymentMethod][currency];
        minConversionRate[depositId][paymentMethod][currency] = minRate;
        if (minRate == 0) {
            if (current != 0) emit DepositCurrencyRemoved(depositId, paymentMethod, currency);
        } else if (current == 0) {
            emit DepositCurrencyAdded(depositId, paymentMethod, currency, minRate);
        } else {
            emit DepositMinConversionRateUpdated(depositId, paymentMethod, currency, minRate);
        }
    }

    /// @notice Names who may move the deposit's floors (zero: nobody but the maker). Only the depositor decides.
    function setRateManager(uint256 depositId, address rateManager) external {
        _ownDeposit(depositId).rateManager = rateManager;
        emit DepositRateManagerSet(depositId, rateManager);
    }

    /// @notice Where the rate manager may move one currency's floor; max zero forbids it.
    function setRateBounds(uint256 depositId, bytes32 paymentMethod, bytes32 currency, Range calldata bounds) external {
        _managedDeposit(depositId);
        if (bounds.min > bounds.max) revert InvalidRange(bounds.min, bounds.max);
        if (bounds.max != 0 && bounds.min == 0) revert ZeroValue();
        rateBounds[depositId][paymentMethod][currency] = bounds;
        emit DepositRateBoundsSet(depositId, paymentMethod, currency, bounds);
    }

    /// @notice The rate manager moves an accepted currency's floor, inside the maker's bounds.
    function updateMinConversionRate(uint256 depositId, bytes32 paymentMethod, bytes32 currency, uint256 rate) external {
        Deposit storage deposit = _existingDeposit(depositId);
        if (msg.sender != deposit.rateManager || msg.sender == address(0)) revert UnauthorizedCaller(msg.sender);
        if (minConversionRate[depositId][paymentMethod][currency] == 0) {
            revert CurrencyNotAccepted(depositId, paymentMethod, currency);
        }
        Range memory bounds = rateBounds[depositId][paymentMethod][currency];
        if (rate < bounds.min || rate > bounds.max || bounds.max == 0) revert RateOutOfBounds(rate, bounds.min, bounds.max);
        minConversionRate[depositId][paymentMethod][currency] = rate;
        emit DepositMinConversionRateUpdated(depositId, paymentMethod, currency, rate);
    }

    function getRateBounds(uint256 depositId, bytes32 paymentMethod, bytes32 currency) external view returns (Range memory) {
        return rateBounds[depositId][paymentMethod][currency];
    }

    function setIntentAmountRange(uint256 depositId, Range calldata intentAmountRange) external {
        Deposit storage deposit = _managedDeposit(depositId);
        if (intentAmountRange.min == 0) revert ZeroValue();
        if (intentAmountRange.min > intentAmountRange.max) {
            revert InvalidRange(intentAmountRange.min, intentAmountRange.max);
        }
        deposit.intentAmountRange = intentAmountRange;
        emit DepositIntentAmountRangeUpdated(depositId, intentAmountRange);
    }

    function setPrivate(uint256 depositId, bool isPrivate) external {
        _managedDeposit(depositId).isPrivate = isPrivate;
        emit DepositPrivacyUpdated(depositId, isPrivate);
    }

    function setDisputeProtectionEnabled(uint256 depositId, bool enabled) external {
        _managedDeposit(depositId).disputeProtectionEnabled = enabled;
        emit DepositDisputeProtectionUpdated(depositId, enabled);
    }

    function setSellerAutomatedRelease(uint256 depositId, bool enabled) external {
        _managedDeposit(depositId).sellerAutomatedRelease = enabled;
        emit DepositSellerAutomatedReleaseUpdated(depositId, enabled);
    }

    function getDeposit(uint256 depositId) external view returns (Deposit memory) {
        return _existingDeposit(depositId);
    }

    function _releaseLock(uint256 depositId, bytes32 intentHash) private returns (uint256 amount) {
        amount = lockedAmount[depositId][intentHash];
        if (amount == 0) revert IntentNotFound(depositId, intentHash);
        delete lockedAmount[depositId][intentHash];
        delete lockExpiry[depositId][intentHash];
        deposits[depositId].locked -= amount;
    }

    function _existingDeposit(uint256 depositId) private view returns (Deposit storage deposit) {
        deposit = deposits[depositId];
        if (deposit.depositor == address(0)) revert DepositNotFound(depositId);
    }

    /// @dev The depositor or its delegate.
    function _managedDeposit(uint256 depositId) private view returns (Deposit storage deposit) {
        deposit = _existingDeposit(depositId);
        if (msg.sender != deposit.depositor && msg.sender != deposit.delegate) revert UnauthorizedCaller(msg.sender);
    }

    function _ownDeposit(uint256 depositId) private view returns (Deposit storage deposit) {
        deposit = _existingDeposit(depositId);
        if (msg.sender != deposit.depositor) revert UnauthorizedCaller(msg.sender);
    }
}
