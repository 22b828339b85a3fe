// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @notice The code an embedded wallet delegates to (EIP-7702) so that a sponsor can submit a batch
/// of calls the wallet signed: the wallet stays msg.sender of every call, the sponsor pays the gas,
/// and the batch runs whole or not at all.
///
/// Anyone may submit a batch, so everything rests on the signature: it must be the account's own
/// (address(this) under delegation), over the exact calls, a nonce never used before and a deadline.
contract BatchExecutor is EIP712 {
    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    bytes32 private constant CALL_TYPEHASH = keccak256("Call(address target,uint256 value,bytes data)");
    bytes32 private constant BATCH_TYPEHASH =
        keccak256("Batch(Call[] calls,uint256 nonce,uint256 deadline)Call(address target,uint256 value,bytes data)");

    /// @custom:storage-location erc7201:peer.BatchExecutor
    struct ExecutorStorage {
        mapping(uint256 => bool) usedNonces;
    }

    /// @dev ERC-7201: the account keeps its storage across delegations, so ours lives where no
    /// other code's layout starts: keccak256(abi.encode(uint256(keccak256("peer.BatchExecutor")) - 1)) & ~0xff.
    bytes32 private constant STORAGE_LOCATION = 0xbfb8034182312b83c69bcc8506d2f6b495d1c13fb73dcb06ba26c00639f77400;

    event BatchExecuted(uint256 indexed nonce, uint256 calls);

    error BatchExpired(uint256 deadline);
    error NonceUsed(uint256 nonce);
    error NotSignedByAccount(address signer);

    constructor() EIP712("PeerBatchExecutor", "1") {}

    /// @notice Runs the calls in order as this account; any call's revert reverts the batch with
    /// that call's own revert data, so the caller reads the inner error, not a wrapper.
    function execute(Call[] calldata calls, uint256 nonce, uint256 deadline, bytes calldata signature) external payable {
        if (block.timestamp > deadline) revert BatchExpired(deadline);
        ExecutorStorage storage store = _store();
        if (store.usedNonces[nonce]) revert NonceUsed(nonce);
        address signer = ECDSA.recover(batchDigest(calls, nonce, deadline), signature);
        if (signer != address(this)) revert NotSignedByAccount(signer);
        store.usedNonces[nonce] = true;

        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory result) = calls[i].target.call{value: calls[i].value}(calls[i].data);
            if (!ok) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
        }
        emit BatchExecuted(nonce, calls.length);
    }

    function nonceUsed(uint256 nonce) external view returns (bool) {
        return _store().usedNonces[nonce];
    }

    /// @notice The EIP-712 digest the account signs; its domain names this account as verifying contract.
    function batchDigest(Call[] calldata calls, uint256 nonce, uint256 deadline) public view returns (bytes32) {
        bytes32[] memory callHashes = new bytes32[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            callHashes[i] = keccak256(abi.encode(CALL_TYPEHASH, calls[i].target, calls[i].value, keccak256(calls[i].data)));
        }
        return _hashTypedDataV4(keccak256(abi.encode(BATCH_TYPEHASH, keccak256(abi.encodePacked(callHashes)), nonce, deadline)));
    }

    function _store() private pure returns (ExecutorStorage storage store) {
        assembly {
            store.slot := STORAGE_LOCATION
        }
    }
}
