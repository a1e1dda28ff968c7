//! `queens-simd status DIR [--format json] [--fresh SECONDS]`: a campaign's
//! folder at a glance. Every `*.json` below DIR ([`scan`]) is read as a
//! shard record or a checkpoint, with `merge`'s checks ([`read`]); the
//! plan and shard count of most files are the campaign's, and what the
//! files add up to ([`summary`]) is printed as lines or one JSON object
//! ([`report`]). A refused file is one line of the report, not an error:
//! the status is 0 whenever the folder could be read and holds at least
//! one valid record or checkpoint, 2 otherwise (one line on stderr).

mod read;
mod report;
mod scan;
mod summary;

use std::io::Write;
use std::time::SystemTime;

use super::Failure;
use super::args::{CampaignStatus, StatusFormat};
use super::files::path_text;

pub fn status(request: &CampaignStatus, out: &mut impl Write) -> Result<(), Failure> {
    let found = scan::scan(&request.dir).map_err(Failure::Refused)?;
    let mut files = read::Files::read(found.files);
    files.refused.extend(found.unreadable);
    let refused = files.refused.len();
    let first = files.refused.first().map(|(_, line)| line.clone());
    let Some(summary) = summary::Summary::of(files, SystemTime::now(), request.fresh) else {
        let shown = path_text(&request.dir);
        return Err(Failure::Refused(match first {
            None => format!("{shown} holds no *.json file: no record or checkpoint of a campaign"),
            Some(line) => format!(
                "{shown} holds no valid record or checkpoint: {} refused, the first: {line}",
                super::plural::counted(refused, "file", "files")
            ),
        }));
    };
    match request.format {
        StatusFormat::Text => report::text(out, &request.dir, &summary)?,
        StatusFormat::Json => report::json(out, &request.dir, &summary)?,
    }
    Ok(())
}
