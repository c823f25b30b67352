#!/bin/sh
# The image's ENTRYPOINT: `arraygraph` with the image's arguments (CMD: `serve --host 0.0.0.0
# --port 8000`), plus `--demo` when ARRAYGRAPH_DEMO is on and the command is `serve`. `exec`
# makes the server the process the container's signals go to (SIGTERM on `docker stop`); nothing
# is installed or fetched here. The demo never writes over data: store/demo.py skips a database
# that already holds any.
set -eu

demo=""
case "$(printf '%s' "${ARRAYGRAPH_DEMO:-}" | tr '[:upper:]' '[:lower:]')" in
    "" | 0 | false | no | off) ;;
    1 | true | yes | on) demo="--demo" ;;
    *)
        echo "arraygraph: ARRAYGRAPH_DEMO must be on or off (1/0, true/false, yes/no)," \
            "got '${ARRAYGRAPH_DEMO}'" >&2
        exit 2
        ;;
esac

if [ "${1:-}" = "serve" ] && [ -n "$demo" ]; then
    shift
    exec arraygraph serve "$demo" "$@"
fi
exec arraygraph "$@"
