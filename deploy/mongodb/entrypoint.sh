#!/bin/sh
# The mongodb service's entrypoint (docker-compose.yml): makes the replica set's key file, then
# runs the image's own entrypoint with the service's command. With authentication on, mongod
# refuses --replSet without a key file (the members' credential to each other); this one-member
# set only needs it to exist, owned by mongod's user and readable by it alone, which a
# bind-mounted secret cannot promise. Made once from random bytes, kept in the config volume.
set -eu

key_file=/data/configdb/replica-set.key
if [ ! -s "$key_file" ]; then
    umask 077
    head -c 756 /dev/urandom | base64 > "$key_file.new"  # 1008 characters; at most 1024
    mv "$key_file.new" "$key_file"
fi
chown mongodb:mongodb "$key_file"
chmod 0400 "$key_file"
exec docker-entrypoint.sh "$@"
