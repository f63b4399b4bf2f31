#!/bin/bash
# The container's HEALTHCHECK: apcgate answers the Gator handshake on its port. It says
# "STREAMLINE", expects "GATOR 680" and leaves with a Disconnect command (code 4, length 0), so
# the daemon logs nothing for it. APCGATE_PORT (default 8080) must match the served port.
set -u
port=${APCGATE_PORT:-8080}
exec 3<>"/dev/tcp/127.0.0.1/${port}" || exit 1
printf 'STREAMLINE\n' >&3
IFS= read -r -t 5 line <&3 || exit 1
printf '\004\000\000\000\000' >&3
exec 3>&-
[ "$line" = "GATOR 680" ]
