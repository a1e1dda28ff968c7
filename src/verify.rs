//! Cross-checks every kernel against the portable kernel (filled in below).
