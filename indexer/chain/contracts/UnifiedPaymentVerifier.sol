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
contract UnifiedPaymentVerifier is EIP712, Ownable {
    /// @notice The signed fields, plus what travels beside them: the signature itself and the
    /// evidence whose hash was signed.
    struct PaymentAttestation {
        bytes32 intentHash;
        uint256 releaseAmount;
        bytes32 dataHash;
        bytes signature;
        bytes data;
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
    }

    bytes32 public constant PAYMENT_ATTESTATION_TYPEHASH =
        keccak256("PaymentAttestation(bytes32 intentHash,uint256 releaseAmount,bytes32 dataHash)");

    mapping(address => bool) public isWitness;
    /// @notice keccak256(method, paymentId) of every payment that has released an intent.
    mapping(bytes32 => bool) public isNullified;
    /// @notice The one caller whose fulfilments may spend nullifiers.
    address public orchestrator;

    event WitnessSet(address indexed witness, bool registered);
    event OrchestratorSet(address indexed orchestrator);
    event PaymentNullified(bytes32 indexed nullifier, bytes32 indexed intentHash);

    error ZeroAddress();
    error UnauthorizedCaller(address caller);
    error DataHashMismatch(bytes32 signed, bytes32 actual);
    error ReleaseExceedsLocked(uint256 releaseAmount, uint256 lockedAmount);
    error UnknownWitness(address signer);
    error SnapshotMismatch(string field);
    error PaymentAlreadyUsed(bytes32 nullifier);

    constructor(address initialOwner) EIP712("UnifiedPaymentVerifier", "1") Ownable(initialOwner) {}

    function setWitness(address witness, bool registered) external onlyOwner {
        if (witness == address(0)) revert ZeroAddress();
        isWitness[witness] = registered;
        emit WitnessSet(witness, registered);
    }

    function setOrchestrator(address newOrchestrator) external onlyOwner {
        if (newOrchestrator == address(0)) revert ZeroAddress();
        orchestrator = newOrchestrator;
        emit OrchestratorSet(newOrchestrator);
    }

    /// @notice Reverts unless the attestation proves the payment of `intent`; spends its nullifier.
    function verifyPayment(PaymentAttestation calldata attestation, IntentTerms calldata intent) external {
        if (msg.sender != orchestrator) revert UnauthorizedCaller(msg.sender);
        bytes32 actual = keccak256(attestation.data);
        if (actual != attestation.dataHash) revert DataHashMismatch(attestation.dataHash, actual);
        if (attestation.releaseAmount > intent.amount) {
            revert ReleaseExceedsLocked(attestation.releaseAmount, intent.amount);
        }
        bytes32 structHash = keccak256(
            abi.encode(
                PAYMENT_ATTESTATION_TYPEHASH, attestation.intentHash, attestation.releaseAmount, attestation.dataHash
            )
        );
        address signer = ECDSA.recover(_hashTypedDataV4(structHash), attestation.signature);
        if (!isWitness[signer]) revert UnknownWitness(signer);

        (PaymentDetails memory details, IntentSnapshot memory snapshot) =
            abi.decode(attestation.data, (PaymentDetails, IntentSnapshot));
        _holdToIntent(attestation.intentHash, details, snapshot, intent);

        bytes32 nullifier = keccak256(abi.encodePacked(details.method, details.paymentId));
        if (isNullified[nullifier]) revert PaymentAlreadyUsed(nullifier);
        isNullified[nullifier] = true;
        emit PaymentNullified(nullifier, attestation.intentHash);
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
        if (details.method != intent.paymentMethod) revert SnapshotMismatch("method");
    }
}
