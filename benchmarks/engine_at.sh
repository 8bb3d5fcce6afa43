#!/bin/sh
# Run the engine of another checkout (for example the previous version, to measure progress):
#   git -C <repo> worktree add /work/prev-ffbb6c3 ffbb6c3
#   isaac-referee match ... -engine name=prev cmd="sh benchmarks/engine_at.sh /work/prev-ffbb6c3"
# The checkout's own packages come first on the import path, whatever is installed. A checkout
# with C extensions (setup.py: engine/games/*/_*.c, or engine/search/_*.c before the layout of
# engine/games/) has them built in place first, once (they
# are not in git).
cd "$1" || exit 2
missing=no
for source in engine/search/_*.c engine/games/*/_*.c; do
    [ -f "$source" ] || continue
    ls "${source%.c}".*so >/dev/null 2>&1 || missing=yes
done
if [ -f setup.py ] && [ "$missing" = yes ]; then
    # two engines of one checkout may start at once: one builds, the other waits for it (and
    # its own build then finds everything up to date)
    flock .build.lock "${PYTHON:-python}" setup.py -q build_ext --inplace >/dev/null 2>&1
fi
PYTHONPATH="$1" exec "${PYTHON:-python}" -m engine
