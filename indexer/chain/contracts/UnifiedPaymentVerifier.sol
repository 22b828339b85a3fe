// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice Decides whether an off-chain payment proves an intent paid: a registered witness (the
/// attestation service) must have signed a PaymentAttestation over the intent, the amount to
/// release and the hash of the evidence it saw. The evidence is (PaymentDetails, IntentSnapshot):
/// the witness checked the payment against the snapshot; this contract holds the snapshot to the
/// intent as the orchestrator recorded it, and spends the payment's nullifier so that one payment
/// never releases two intents. The domain name and version are Base's, so the attestation
/// service signs the same typed data for either chain.
///
/// The payment must have been made inside the intent's window: no earlier than its signal and no
/// later than its expiry, each bound widened by the witness's buffer for the platform's clock. Only
/// when the payment was made is bounded, not when it is proved: a buyer who paid in time may prove
/// it after the expiry, for as long as nobody has cancelled the intent.
///
/// The proof travels as the protocol's ABI-encoded PaymentAttestation, signatures as a list: at
/// least `minWitnessSignatures` distinct registered witnesses must have signed, and a signature
/// from anyone else reverts. `metadata` is carried for the client and not signed or read here.
contract UnifiedPaymentVerifier is EIP712, Ownable {
    /// @notice The signed fields, plus what travels beside them: the signature itself and the
    /// evidence whose hash was signed.
    struct PaymentAttestation {
        bytes32 intentHash;
        uint256 releaseAmount;
        bytes32 dataHash;
        bytes[] signatures;
        bytes data;
        bytes metadata;
    }

    /// @notice The payment as the witness read it; ids and codes are keccak256 hashes.
    struct PaymentDetails {
        bytes32 method;
        bytes32 payeeId;
        uint256 amount;
        bytes32 currency;
        uint256 timestamp;
        bytes32 paymentId;
    }

    /// @notice The intent as the witness was told it was.
    struct IntentSnapshot {
        bytes32 intentHash;
        uint256 amount;
        bytes32 paymentMethod;
        bytes32 fiatCurrency;
        bytes32 payeeDetails;
        uint256 conversionRate;
        uint256 signalTimestamp;
        /// @dev Unix seconds, as the orchestrator set it when the intent was signalled.
        uint256 expiryTime;
        /// @dev Milliseconds either side of the window the witness allows for the platform's clock.
        uint256 timestampBuffer;
    }

    /// @notice The intent as the orchestrator recorded it.
    struct IntentTerms {
        uint256 amount;
        bytes32 paymentMethod;
        bytes32 fiatCurrency;
        bytes32 payeeDetails;
        uint256 conversionRate;
        uint256 signalTimestamp;
        uint256 expiryTime;
    }

    bytes32 public constant PAYMENT_ATTESTATION_TYPEHASH =
        keccak256("PaymentAttestation(bytes32 intentHash,uint256 releaseAmount,bytes32 dataHash)");

    mapping(address => bool) public isWitness;
    /// @notice keccak256(method, paymentId) of every payment that has released an intent.
    mapping(bytes32 => bool) public isNullified;
    /// @notice The one caller whose fulfilments may spend nullifiers.
    address public orchestrator;
    /// @notice How many distinct registered witnesses must sign a proof.
    uint256 public minWitnessSignatures = 1;

    event WitnessSet(address indexed witness, bool registered);
    event OrchestratorSet(address indexed orchestrator);
    event PaymentNullified(bytes32 indexed nullifier, bytes32 indexed intentHash);
    event MinWitnessSignaturesSet(uint256 minWitnessSignatures);

    error ZeroAddress();
    error UnauthorizedCaller(address caller);
    error DataHashMismatch(bytes32 signed, bytes32 actual);
    error ReleaseExceedsLocked(uint256 releaseAmount, uint256 lockedAmount);
    error UnknownWitness(address signer);
    error SnapshotMismatch(string field);
    /// @notice The payment's time (Unix ms, as the witness read it) lies outside the intent's window.
    error PaymentOutsideIntentWindow(uint256 timestamp);
    error PaymentAlreadyUsed(bytes32 nullifier);
    error IntentHashMismatch(bytes32 expected, bytes32 attested);
    error DuplicateWitness(address witness);
    error NotEnoughWitnesses(uint256 signed, uint256 required);
    error ZeroValue();

    constructor(address initialOwner) EIP712("UnifiedPaymentVerifier", "1") Ownable(initialOwner) {}

    function setWitness(address witness, bool registered) external onlyOwner {
        if (witness == address(0)) revert ZeroAddress();
        isWitness[witness] = registered;
        emit WitnessSet(witness, registered);
    }

    function setMinWitnessSignatures(uint256 count) external onlyOwner {
        if (count == 0) revert ZeroValue();
        minWitnessSignatures = count;
        emit MinWitnessSignaturesSet(count);
    }

    function setOrchestrator(address newOrchestrator) external onlyOwner {
        if (newOrchestrator == address(0)) revert ZeroAddress();
        orchestrator = newOrchestrator;
        emit OrchestratorSet(newOrchestrator);
    }

    /// @notice Reverts unless `paymentProof` (an ABI-encoded PaymentAttestation) proves the payment
    /// of `intent`; spends its nullifier and returns the amount it releases.
    function verifyPayment(bytes calldata paymentProof, bytes32 intentHash, IntentTerms calldata intent)
        external
        returns (uint256 releaseAmount)
    {
        if (msg.sender != orchestrator) revert UnauthorizedCaller(msg.sender);
        PaymentAttestation memory attestation = abi.decode(paymentProof, (PaymentAttestation));
        if (attestation.intentHash != intentHash) revert IntentHashMismatch(intentHash, attestation.intentHash);
        bytes32 actual = keccak256(attestation.data);
        if (actual != attestation.dataHash) revert DataHashMismatch(attestation.dataHash, actual);
        if (attestation.releaseAmount > intent.amount) {
            revert ReleaseExceedsLocked(attestation.releaseAmount, intent.amount);
        }
        _requireWitnesses(attestation);

        (PaymentDetails memory details, IntentSnapshot memory snapshot) =
            abi.decode(attestation.data, (PaymentDetails, IntentSnapshot));
        _holdToIntent(intentHash, details, snapshot, intent);
        _requireInWindow(details, snapshot);

        bytes32 nullifier = keccak256(abi.encodePacked(details.method, details.paymentId));
        if (isNullified[nullifier]) revert PaymentAlreadyUsed(nullifier);
        isNullified[nullifier] = true;
        emit PaymentNullified(nullifier, intentHash);
        return attestation.releaseAmount;
    }

    /// @dev Every signature must be a registered witness's, each witness counted once.
    function _requireWitnesses(PaymentAttestation memory attestation) private view {
        bytes32 digest = _hashTypedDataV4(
            keccak256(
                abi.encode(
                    PAYMENT_ATTESTATION_TYPEHASH, attestation.intentHash, attestation.releaseAmount, attestation.dataHash
                )
            )
        );
        uint256 count = attestation.signatures.length;
        address[] memory signers = new address[](count);
        for (uint256 i = 0; i < count; i++) {
            address signer = ECDSA.recover(digest, attestation.signatures[i]);
            if (!isWitness[signer]) revert UnknownWitness(signer);
            for (uint256 j = 0; j < i; j++) {
                if (signers[j] == signer) revert DuplicateWitness(signer);
            }
            signers[i] = signer;
        }
        if (count < minWitnessSignatures) revert NotEnoughWitnesses(count, minWitnessSignatures);
    }

    function _holdToIntent(
        bytes32 intentHash,
        PaymentDetails memory details,
        IntentSnapshot memory snapshot,
        IntentTerms calldata intent
    ) private pure {
        if (snapshot.intentHash != intentHash) revert SnapshotMismatch("intentHash");
        if (snapshot.amount != intent.amount) revert SnapshotMismatch("amount");
        if (snapshot.paymentMethod != intent.paymentMethod) revert SnapshotMismatch("paymentMethod");
        if (snapshot.fiatCurrency != intent.fiatCurrency) revert SnapshotMismatch("fiatCurrency");
        if (snapshot.payeeDetails != intent.payeeDetails) revert SnapshotMismatch("payeeDetails");
        if (snapshot.conversionRate != intent.conversionRate) revert SnapshotMismatch("conversionRate");
        if (snapshot.signalTimestamp != intent.signalTimestamp) revert SnapshotMismatch("signalTimestamp");
        if (snapshot.expiryTime != intent.expiryTime) revert SnapshotMismatch("expiryTime");
        if (details.method != intent.paymentMethod) revert SnapshotMismatch("method");
    }

    /// @dev The witness applies this rule before it signs; it is repeated here so that the rule holds
    /// on chain whatever witness code signed, as the snapshot's other fields are held to the intent.
    /// It runs after _holdToIntent, so the window is the intent's own. The buffer is the witness's
    /// signed setting and cannot be checked here. Written as differences so no signed value overflows.
    function _requireInWindow(PaymentDetails memory details, IntentSnapshot memory snapshot) private pure {
        uint256 opens = snapshot.signalTimestamp * 1000;
        uint256 closes = snapshot.expiryTime * 1000;
        bool early = details.timestamp < opens && opens - details.timestamp > snapshot.timestampBuffer;
        bool late = details.timestamp > closes && details.timestamp - closes > snapshot.timestampBuffer;
        if (early || late) revert PaymentOutsideIntentWindow(details.timestamp);
    }
}
