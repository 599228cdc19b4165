// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {ERC2981} from "@openzeppelin/contracts/token/common/ERC2981.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @title Chaingate standard multi-token collection
/// @notice Owner-minted ERC-1155 with per-id JSON metadata and one collection-wide ERC-2981 royalty.
/// @dev Minting is restricted with Ownable rather than AccessControl: the gateway deploys and mints
///      from a single custodied account, so one owner matches the ERC-721 contract and keeps it simple.
contract ChaingateERC1155 is ERC1155, ERC2981, Ownable {
    using Strings for uint256;

    /// @dev Royalties are expressed in whole percent, so anything above 100 is meaningless.
    error RoyaltyPercentageTooHigh(uint96 royaltyPercent);

    string private _name;
    string private _symbol;

    /// @param baseUri Metadata location without trailing slash; `uri(id)` appends "/<id>.json".
    /// @param royaltyPercent Whole percent (0-100) of the sale price owed to `royaltyRecipient`.
    constructor(
        string memory name_,
        string memory symbol_,
        string memory baseUri,
        address royaltyRecipient,
        uint96 royaltyPercent
    ) ERC1155(baseUri) Ownable(msg.sender) {
        if (royaltyPercent > 100) revert RoyaltyPercentageTooHigh(royaltyPercent);
        _name = name_;
        _symbol = symbol_;
        _setDefaultRoyalty(royaltyRecipient, royaltyPercent * 100);
    }

    function name() public view returns (string memory) {
        return _name;
    }

    function symbol() public view returns (string memory) {
        return _symbol;
    }

    /// @dev Concrete per-id paths instead of the ERC-1155 `{id}` template, which many wallets ignore.
    function uri(uint256 id) public view virtual override returns (string memory) {
        return string.concat(super.uri(id), "/", id.toString(), ".json");
    }

    function mint(address to, uint256 id, uint256 amount) external onlyOwner {
        _mint(to, id, amount, "");
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external onlyOwner {
        _mintBatch(to, ids, amounts, "");
    }

    function supportsInterface(bytes4 interfaceId) public view virtual override(ERC1155, ERC2981) returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
