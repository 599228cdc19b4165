// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ERC2981} from "@openzeppelin/contracts/token/common/ERC2981.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";

/// @title Chaingate standard NFT collection
/// @notice Owner-minted ERC-721 with per-token IPFS metadata and per-token ERC-2981 royalties.
contract ChaingateERC721 is ERC721URIStorage, ERC2981, Ownable {
    /// @dev The same IPFS content may back only one token, so a retried mint cannot duplicate an NFT.
    error DuplicateIpfsHash(string ipfsHash);
    /// @dev Royalties are expressed in whole percent, so anything above 100 is meaningless.
    error RoyaltyPercentageTooHigh(uint96 royaltyPercentage);

    mapping(bytes32 ipfsHashDigest => bool used) private _usedIpfsHashes;

    constructor(string memory name_, string memory symbol_) ERC721(name_, symbol_) Ownable(msg.sender) {}

    /// @notice Mints `tokenId` to `recipient`, who also becomes the royalty receiver for it.
    /// @param royaltyPercentage Whole percent (0-100) of the sale price owed to `recipient`.
    function mint(
        address recipient,
        uint256 tokenId,
        string calldata ipfsUri,
        string calldata ipfsHash,
        uint96 royaltyPercentage
    ) external onlyOwner {
        bytes32 digest = keccak256(bytes(ipfsHash));
        if (_usedIpfsHashes[digest]) revert DuplicateIpfsHash(ipfsHash);
        if (royaltyPercentage > 100) revert RoyaltyPercentageTooHigh(royaltyPercentage);
        _usedIpfsHashes[digest] = true;

        // State is complete before _safeMint hands control to a receiver contract.
        _setTokenURI(tokenId, ipfsUri);
        _setTokenRoyalty(tokenId, recipient, royaltyPercentage * 100);
        _safeMint(recipient, tokenId);
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        virtual
        override(ERC721URIStorage, ERC2981)
        returns (bool)
    {
        return super.supportsInterface(interfaceId);
    }
}
