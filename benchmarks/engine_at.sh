#!/bin/sh
# Run the engine of another checkout (for example the previous version, to measure progress):
#   git -C <repo> worktree add /work/prev-ffbb6c3 ffbb6c3
#   isaac-referee match ... -engine name=prev cmd="sh benchmarks/engine_at.sh /work/prev-ffbb6c3"
# The checkout's own packages come first on the import path, whatever is installed.
cd "$1" || exit 2
PYTHONPATH="$1" exec "${PYTHON:-python}" -m engine
