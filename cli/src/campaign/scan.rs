//! Finding a campaign's files: every `*.json` in a folder and in its
//! subfolders, by name only; what each holds is for `read` to say.

use std::fs;
use std::path::{Path, PathBuf};

use super::super::files::path_text;

/// How deep `status` looks below its folder: far more than a campaign's
/// `records/` and `checkpoints/`, and a bound on a folder nested without
/// end.
pub const MAX_DEPTH: usize = 16;

/// What a walk of the folder found.
#[derive(Debug, Default)]
pub struct Found {
    /// Every `*.json` below the folder, whatever its kind (a FIFO or a
    /// folder of that name too: reading it says why it is refused), in
    /// the order of their paths.
    pub files: Vec<PathBuf>,
    /// The subfolders that could not be listed, each with its line.
    pub unreadable: Vec<(PathBuf, String)>,
}

/// Walks `dir`: one line saying why not if `dir` is not a folder that can
/// be listed. Hidden entries (`.name`: a checkpoint's temporary files
/// `.FILE.*.tmp`, `.snapshot` folders of a filer that hold copies of
/// everything) are skipped, as is every name that does not end in
/// `.json` (lock files `FILE.lock`, partial records `*.json.part`, logs).
/// Links to folders are not followed, so a loop of links cannot trap the
/// walk; a link named `*.json` is read as the file it names.
pub fn scan(dir: &Path) -> Result<Found, String> {
    let shown = path_text(dir);
    match fs::metadata(dir) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => {
            return Err(format!(
                "{shown} is not a directory: status reads a campaign's folder"
            ));
        }
        Err(e) => return Err(format!("cannot read {shown}: {e}")),
    }
    let mut found = Found::default();
    let top = fs::read_dir(dir).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut folders = vec![(dir.to_path_buf(), 0, Some(top))];
    while let Some((folder, depth, listing)) = folders.pop() {
        let listing = match listing.map_or_else(|| fs::read_dir(&folder), Ok) {
            Ok(listing) => listing,
            Err(e) => {
                let line = format!("cannot read folder {}: {e}", path_text(&folder));
                found.unreadable.push((folder, line));
                continue;
            }
        };
        for entry in listing {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let line = format!("cannot list all of folder {}: {e}", path_text(&folder));
                    found.unreadable.push((folder.clone(), line));
                    break;
                }
            };
            let name = entry.file_name();
            if name.as_encoded_bytes().starts_with(b".") {
                continue;
            }
            let path = entry.path();
            let is_folder = entry.file_type().is_ok_and(|t| t.is_dir());
            if path.extension().is_some_and(|e| e == "json") {
                found.files.push(path);
            } else if is_folder && depth < MAX_DEPTH {
                folders.push((path, depth + 1, None));
            } else if is_folder {
                let line = format!(
                    "folder {} is more than {MAX_DEPTH} levels deep: not read",
                    path_text(&path)
                );
                found.unreadable.push((path, line));
            }
        }
    }
    found.files.sort();
    found.unreadable.sort();
    Ok(found)
}
