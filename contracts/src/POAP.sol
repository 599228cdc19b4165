// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @title Chaingate proof-of-attendance badges
/// @notice ERC-1155 badges that only minters (the event organiser) can hand out; holders cannot
///         trade them, which is what makes a badge proof that the organiser gave it.
contract ChaingatePOAP is ERC1155, AccessControl {
    using Strings for uint256;

    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @dev A transfer between two holders was initiated by an account without MINTER_ROLE.
    error TransferNotAllowed(address operator);

    string private _name;

    /// @param baseUri Metadata location without trailing slash; `uri(id)` appends "/<id>.json".
    /// @param amounts Supply to pre-mint to the deployer; `amounts[i]` is minted for token id `i + 1`.
    constructor(string memory name_, string memory baseUri, uint256[] memory amounts) ERC1155(baseUri) {
        _name = name_;
        _grantRole(DEFAULT_ADMIN_ROLE, msg.sender);
        _grantRole(MINTER_ROLE, msg.sender);
        for (uint256 i = 0; i < amounts.length; ++i) {
            _mint(msg.sender, i + 1, amounts[i], "");
        }
    }

    function name() public view returns (string memory) {
        return _name;
    }

    function uri(uint256 id) public view virtual override returns (string memory) {
        return string.concat(super.uri(id), "/", id.toString(), ".json");
    }

    /// @notice Hands one badge of `id` from the caller to `to`; only minters get past `_update`.
    function transfer(address to, uint256 id) external {
        _safeTransferFrom(_msgSender(), to, id, 1, "");
    }

    function mint(address to, uint256 id, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, id, amount, "");
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        virtual
        override(ERC1155, AccessControl)
        returns (bool)
    {
        return super.supportsInterface(interfaceId);
    }

    /// @dev Mints (and burns, should a subclass add them) stay open; only holder-to-holder moves are gated.
    function _update(address from, address to, uint256[] memory ids, uint256[] memory values)
        internal
        virtual
        override
    {
        if (from != address(0) && to != address(0) && !hasRole(MINTER_ROLE, _msgSender())) {
            revert TransferNotAllowed(_msgSender());
        }
        super._update(from, to, ids, values);
    }
}
