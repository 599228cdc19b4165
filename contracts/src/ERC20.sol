// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title Chaingate standard fungible token
/// @notice Fixed-supply ERC-20 with 18 decimals, minted to the deployer.
contract ChaingateERC20 is ERC20 {
    /// @dev The requested decrease exceeds the current allowance.
    error ERC20FailedDecreaseAllowance(address spender, uint256 currentAllowance, uint256 requestedDecrease);

    /// @param initialSupply Whole tokens; scaled by 10**18 so callers need not know about decimals.
    constructor(string memory name_, string memory symbol_, uint256 initialSupply) ERC20(name_, symbol_) {
        _mint(msg.sender, initialSupply * 10 ** decimals());
    }

    /// @notice Raises the caller's allowance for `spender` by `addedValue`.
    /// @dev OpenZeppelin 5 dropped this helper; kept because clients of the gateway still call it to
    ///      avoid the approve front-running race.
    function increaseAllowance(address spender, uint256 addedValue) public virtual returns (bool) {
        address owner = _msgSender();
        _approve(owner, spender, allowance(owner, spender) + addedValue);
        return true;
    }

    /// @notice Lowers the caller's allowance for `spender` by `subtractedValue`; reverts below zero.
    function decreaseAllowance(address spender, uint256 subtractedValue) public virtual returns (bool) {
        address owner = _msgSender();
        uint256 currentAllowance = allowance(owner, spender);
        if (currentAllowance < subtractedValue) {
            revert ERC20FailedDecreaseAllowance(spender, currentAllowance, subtractedValue);
        }
        unchecked {
            _approve(owner, spender, currentAllowance - subtractedValue);
        }
        return true;
    }
}
