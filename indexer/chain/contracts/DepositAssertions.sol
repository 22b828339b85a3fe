// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Escrow} from "./Escrow.sol";

/// @notice The pre and post assertions of an atomic deposit creation, called as the first and last
/// calls of the batch: a batch built for a deposit id the escrow will not give it, or that did not
/// leave the wallet holding that deposit, reverts whole.
contract DepositAssertions {
    error DepositIdTaken(uint256 reserved, uint256 next);
    error DepositNotCreated(uint256 depositId, address depositor);

    /// @notice The escrow's next deposit gets `reserved`: no other deposit was created since it was reserved.
    function assertNextDepositId(Escrow escrow, uint256 reserved) external view {
        uint256 next = escrow.depositCount() + 1;
        if (next != reserved) revert DepositIdTaken(reserved, next);
    }

    /// @notice Deposit `depositId` exists and belongs to `depositor`.
    function assertDepositor(Escrow escrow, uint256 depositId, address depositor) external view {
        if (escrow.getDeposit(depositId).depositor != depositor) revert DepositNotCreated(depositId, depositor);
    }
}
