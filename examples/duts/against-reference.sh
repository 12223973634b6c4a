#!/usr/bin/env bash
# Runs one of the Bumble DUTs against blueproof's reference role on one backend, then shows
# the DUT's log, the reference's output, `blueproof check` on the reference's capture, and
# whether the payload arrived byte-exact. Needs scripts/setup (the .venv and the build).
#
#   examples/duts/against-reference.sh [--controller btvirt|rootcanal] [--rssi DBM] peripheral|central PAYLOAD [DUT_FAULT]
#
# peripheral: the DUT peripheral (transfer_peripheral.py, BLUEPROOF_PAYLOAD=PAYLOAD) against
#             `blueproof transfer central` (with --allow-unavailable-rssi on btvirt).
# central:    the DUT central (transfer_central.py) against `blueproof transfer peripheral
#             --file PAYLOAD` (with DUT_ALLOW_UNAVAILABLE_RSSI=1 on btvirt, a test aid).
#             --rssi DBM (btvirt only) puts rssi_shim.py between the DUT and btvirt instead:
#             every advertising report the DUT hears says DBM, and no test aid is set.
# The reference starts the backend and prints "--controller X"; X is the DUT's BLUEPROOF_HCI.
# Everything lands in $WORK (default: a new folder under /tmp), printed first. REFERENCE_ARGS
# adds options to the reference command (e.g. REFERENCE_ARGS="--mtu 185").
set -uo pipefail
cd "$(dirname "$0")/../.."

controller=btvirt
rssi=""
while [ $# -gt 0 ]; do
  case "$1" in
    --controller) controller=$2; shift 2 ;;
    --rssi) rssi=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ] || { [ "$1" != peripheral ] && [ "$1" != central ]; }; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
role=$1
payload=$(realpath "$2")
fault=${3:-}
work=${WORK:-$(mktemp -d /tmp/blueproof-dut-XXXXXX)}
mkdir -p "$work/out"
echo "work folder: $work"
blueproof=.build/debug/blueproof
python=.venv/bin/python

if [ "$role" = peripheral ]; then
  aid=()
  [ "$controller" = btvirt ] && aid=(--allow-unavailable-rssi)
  timeout 45 "$blueproof" transfer central --controller "$controller" "${aid[@]}" --timeout 10 \
    --output "$work/out/received.bin" --capture "$work/reference.pcap" ${REFERENCE_ARGS:-} >"$work/reference.out" 2>"$work/reference.err" &
else
  timeout 45 "$blueproof" transfer peripheral --controller "$controller" --file "$payload" --timeout 15 \
    --capture "$work/reference.pcap" ${REFERENCE_ARGS:-} >"$work/reference.out" 2>"$work/reference.err" &
fi
reference=$!

hci=""
for _ in $(seq 200); do
  hci=$(sed -n 's/.*can join this backend with --controller \(.*\)$/\1/p' "$work/reference.err" | head -1)
  [ -n "$hci" ] && break
  kill -0 $reference 2>/dev/null || break
  sleep 0.1
done
if [ -z "$hci" ]; then
  echo "the reference printed no --controller to join:"; cat "$work/reference.err"; exit 1
fi

export BLUEPROOF_HCI=$hci BLUEPROOF_ROLE=$role BLUEPROOF_CASE=manual BLUEPROOF_OUTPUT=$work/out DUT_FAULT=$fault
if [ "$role" = peripheral ]; then
  BLUEPROOF_PAYLOAD=$payload "$python" examples/duts/transfer_peripheral.py >"$work/dut.out" 2>"$work/dut.err" &
  dut=$!
  wait $reference; reference_status=$?
  kill -TERM $dut 2>/dev/null; wait $dut; dut_status=$?
else
  if [ -n "$rssi" ]; then
    "$python" examples/duts/rssi_shim.py --listen "unix:$work/shim.sock" --controller "$hci" --rssi "$rssi" >"$work/shim.out" 2>&1 &
    shim=$!
    for _ in $(seq 50); do [ -S "$work/shim.sock" ] && break; sleep 0.1; done
    export BLUEPROOF_HCI=unix:$work/shim.sock
  elif [ "$controller" = btvirt ]; then
    export DUT_ALLOW_UNAVAILABLE_RSSI=${DUT_ALLOW_UNAVAILABLE_RSSI-1}
  fi
  timeout --preserve-status -s TERM 12 "$python" examples/duts/transfer_central.py >"$work/dut.out" 2>"$work/dut.err" &
  dut=$!
  wait $dut; dut_status=$?
  wait $reference; reference_status=$?
  [ -n "$rssi" ] && { kill -TERM $shim 2>/dev/null; wait $shim; }
fi

echo "== DUT ($role${fault:+, DUT_FAULT=$fault}): exit $dut_status"
cat "$work/dut.out"
[ -s "$work/dut.err" ] && { echo "-- DUT stderr (last lines)"; tail -5 "$work/dut.err"; }
echo "== reference: exit $reference_status"
cat "$work/reference.err" "$work/reference.out"
echo "== blueproof check $work/reference.pcap"
"$blueproof" check "$work/reference.pcap" | tail -n +2
if [ -f "$work/out/received.bin" ]; then
  if cmp -s "$work/out/received.bin" "$payload"; then echo "RESULT: received.bin byte-exact ($(stat -c %s "$payload") bytes)"
  else echo "RESULT: received.bin DIFFERS from the payload"; fi
else
  echo "RESULT: nothing received"
fi
