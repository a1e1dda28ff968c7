#!/bin/sh
# Renders pages of docs/ to PNG, to look at them as a reader would: pandoc
# turns each page into one HTML file with its pictures inside, and headless
# Chromium takes a screenshot of it, trimmed to the page's length.
#
#   docs/render.sh [docs/PAGE.md ...]     (default: every page)
#
# Writes target/docs-png/PAGE.png. Needs pandoc and chromium (Debian:
# apt-get install pandoc chromium) and python3 with Pillow for the trim
# (without it the PNG keeps the window's full height).
set -eu
cd "$(dirname "$0")/.."
out=target/docs-png
mkdir -p "$out"
# GitHub's width for a README, and pictures no wider than the text.
cat >"$out/style.css" <<'CSS'
body { max-width: 980px; margin: 24px auto; font-family: sans-serif; line-height: 1.45; }
img { max-width: 100%; height: auto; }
code, pre { background: #f4f4f4; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: 3px 6px; }
CSS
[ $# -gt 0 ] || set -- docs/*.md
for page in "$@"; do
    name=$(basename "$page" .md)
    html="$out/$name.html"
    pandoc "$page" --from gfm --standalone --self-contained --resource-path=docs \
        --metadata pagetitle="$name" --css "$out/style.css" -o "$html"
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1040,12000 --screenshot="$out/$name.png" "file://$PWD/$html" 2>/dev/null
    python3 - "$out/$name.png" <<'PY' || true
import sys
from PIL import Image, ImageChops
path = sys.argv[1]
image = Image.open(path).convert("RGB")
box = ImageChops.difference(image, Image.new("RGB", image.size, "white")).getbbox()
if box:
    image.crop((0, 0, image.size[0], min(image.size[1], box[3] + 24))).save(path)
PY
    echo "$out/$name.png"
done
