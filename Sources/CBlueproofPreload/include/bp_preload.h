#ifndef BP_PRELOAD_H
#define BP_PRELOAD_H
/* libBlueproofPreload.so is loaded into btvirt and Rootcanal with LD_PRELOAD; it has no API
   of its own. Its behaviour is chosen by environment variables set by the harness:

   BLUEPROOF_FAKE_AF_ALG=1      socket(AF_ALG) and its bind() succeed even when the kernel has
                                no AF_ALG: btvirt refuses to create an LE controller without
                                them (BlueZ src/shared/crypto.c). Crypto operations on such a
                                socket still fail, so the LE Encrypt command is unavailable.
   BLUEPROOF_SOCKET_DIR=DIR     AF_UNIX paths under /tmp/bt-server- are moved into DIR
                                (bind and unlink), so concurrent runs never share btvirt's
                                fixed socket paths.
   BLUEPROOF_READY_FD=N         after every successful listen(), a line "unix PATH" or
                                "tcp PORT" is written to file descriptor N: the harness waits
                                for that line instead of polling for the socket.
   BLUEPROOF_BLOCKING_SEND=1    send(MSG_DONTWAIT) waits for room and sends the whole buffer:
                                btvirt drops packets (or cuts them) for a reader that falls
                                behind, which a real controller never does.
   BLUEPROOF_BTVIRT_HANDLES=1   btvirt's connection handles are made consistent: each host is
                                told its own controller's handle for a link, and ACL data and
                                link events crossing to the peer carry the peer's handle.
                                btvirt 5.66 reports the initiator's handle to both sides and
                                forwards ACL data with the sender's handle, which breaks a
                                controller's second simultaneous link (preload.c). */
int bp_preload_is_loaded(void);
#endif
