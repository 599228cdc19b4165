import { chown, mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { openZipListing } from '../../platform/uploads/zip-entries.ts';

export type ProjectLimits = {
  maxEntries: number;
  /** Most bytes the files may unpack to; past it the zip is a 400 (a zip bomb). */
  maxUnpackedBytes: number;
};

/** The unpacked tree: every file and every folder (named in the zip or implied by a path), relative. */
export type ProjectTree = { files: Set<string>; directories: Set<string> };

/** An owner for the unpacked files (the sandbox's user when the service runs as root). */
export type FileOwner = { uid: number; gid: number };

/**
 * Unpacks a project zip into `directory` (existing and empty) with the shared zip rules
 * (`platform/uploads/zip-entries.ts`): no absolute path, no `..`, no symbolic link, no entry twice,
 * bounded entries and unpacked bytes, each checked before or while it is written. Files are created
 * with O_EXCL and private modes; nothing but plain files and folders is ever made.
 */
export async function unpackProject(
  zipPath: string,
  directory: string,
  limits: ProjectLimits,
  owner?: FileOwner,
): Promise<ProjectTree> {
  const tree: ProjectTree = { files: new Set(), directories: new Set() };
  const made = new Set<string>();
  const ensureDirectory = async (path: string) => {
    const parts = path.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const relative = parts.slice(0, depth).join('/');
      if (made.has(relative)) continue;
      await mkdir(join(directory, relative), { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      if (owner) await chown(join(directory, relative), owner.uid, owner.gid);
      made.add(relative);
      tree.directories.add(relative);
    }
  };
  const listing = await openZipListing(zipPath, limits);
  try {
    for await (const entry of listing.entries) {
      if (entry.kind === 'directory') {
        await ensureDirectory(entry.path);
        continue;
      }
      if (entry.path.includes('/')) await ensureDirectory(dirname(entry.path));
      const file = await open(join(directory, entry.path), 'wx', 0o600);
      try {
        for await (const chunk of entry.content()) await file.write(chunk);
        if (owner) await file.chown(owner.uid, owner.gid);
      } finally {
        await file.close();
      }
      tree.files.add(entry.path);
    }
  } finally {
    listing.close();
  }
  return tree;
}
