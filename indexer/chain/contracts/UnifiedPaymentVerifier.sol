// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice Decides whether an off-chain payment proves an intent paid: a registered witness (the
/// attestation service) must have signed a PaymentAttestation over the intent, the amount to
/// release and the hash of the evidence it saw. The domain name and version are Base's, so the
/// attestation service signs the same typed data for either chain.
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

    bytes32 public constant PAYMENT_ATTESTATION_TYPEHASH =
        keccak256("PaymentAttestation(bytes32 intentHash,uint256 releaseAmount,bytes32 dataHash)");

    mapping(address => bool) public isWitness;

    event WitnessSet(address indexed witness, bool registered);

    error ZeroAddress();
    error DataHashMismatch(bytes32 signed, bytes32 actual);
    error ReleaseExceedsLocked(uint256 releaseAmount, uint256 lockedAmount);
    error UnknownWitness(address signer);

    constructor(address initialOwner) EIP712("UnifiedPaymentVerifier", "1") Ownable(initialOwner) {}

    function setWitness(address witness, bool registered) external onlyOwner {
        if (witness == address(0)) revert ZeroAddress();
        isWitness[witness] = registered;
        emit WitnessSet(witness, registered);
    }

    /// @notice Reverts unless the attestation proves the payment. A view: replay is stopped by the
    /// orchestrator forgetting an intent once fulfilled, and the signature binds its intent hash.
    function verifyPayment(PaymentAttestation calldata attestation, uint256 lockedAmount) external view {
        bytes32 actual = keccak256(attestation.data);
        if (actual != attestation.dataHash) revert DataHashMismatch(attestation.dataHash, actual);
        if (attestation.releaseAmount > lockedAmount) {
            revert ReleaseExceedsLocked(attestation.releaseAmount, lockedAmount);
        }
        bytes32 structHash = keccak256(
            abi.encode(
                PAYMENT_ATTESTATION_TYPEHASH, attestation.intentHash, attestation.releaseAmount, attestation.dataHash
            )
        );
        address signer = ECDSA.recover(_hashTypedDataV4(structHash), attestation.signature);
        if (!isWitness[signer]) revert UnknownWitness(signer);
    }
}
