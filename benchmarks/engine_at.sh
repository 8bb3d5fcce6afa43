#!/bin/sh
# Run the engine of another checkout (for example the previous version, to measure progress):
#   git -C <repo> worktree add /work/prev-ffbb6c3 ffbb6c3
#   isaac-referee match ... -engine name=prev cmd="sh benchmarks/engine_at.sh /work/prev-ffbb6c3"
# The checkout's own packages come first on the import path, whatever is installed. A checkout
# with C extensions (setup.py) has them built in place first, once (they are not in git).
cd "$1" || exit 2
if [ -f setup.py ] && ! ls engine/search/_harifast*.so >/dev/null 2>&1; then
    # two engines of one checkout may start at once: one builds, the other waits for it
    flock .build.lock sh -c 'ls engine/search/_harifast*.so >/dev/null 2>&1 ||
        "${PYTHON:-python}" setup.py -q build_ext --inplace >/dev/null 2>&1'
fi
PYTHONPATH="$1" exec "${PYTHON:-python}" -m engine
