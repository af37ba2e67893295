#!/usr/bin/env python3
"""Stand-ins for the compose stack's images that have no Debian package (`cargo xtask test
compose`): the OpenTelemetry collector, Jaeger and Mailpit. Each keeps only what the stack's
wiring relies on, so that a wrong host, port or setting in docker-compose.yml fails as the real
image would, and logs what it received for the step to check:

  standin.py otel-collector --config=FILE   OTLP/HTTP on :4318 (the port FILE's receiver names),
                                            logging `received POST /v1/traces <n> bytes`
  standin.py jaeger                         the UI port :16686 and OTLP gRPC :4317, accepted only
  standin.py mailpit                        SMTP on :1025 (no auth, no TLS), and Mailpit's
                                            `GET /api/v1/messages` and
                                            `GET /api/v1/message/<ID>` on :8025
"""

import json
import re
import signal
import socket
import socketserver
import sys
import threading
from email import message_from_bytes
from email.policy import default as default_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def log(*parts):
    print(*parts, flush=True)


class QuietHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve_http(port, handler):
    server = ThreadingHTTPServer(("0.0.0.0", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    log(f"listening on :{port} (HTTP)")


def otel_collector(arguments):
    config = next((a.split("=", 1)[1] for a in arguments if a.startswith("--config=")), None)
    if config is None:
        sys.exit("otel-collector stand-in: --config=FILE is required, as the collector's is")
    text = open(config).read()  # a missing mount fails here, as it would fail the collector
    # The port the config's OTLP HTTP receiver listens on: where the service must send.
    match = re.search(r"http:\s*\n\s*endpoint:\s*[^\s:]*:(\d+)", text)
    if match is None:
        sys.exit(f"otel-collector stand-in: {config} names no OTLP HTTP receiver endpoint")
    port = int(match.group(1))

    class Otlp(QuietHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            log(f"received POST {self.path} {len(body)} bytes "
                f"({self.headers.get('Content-Type', '')})")
            if self.path in ("/v1/traces", "/v1/metrics", "/v1/logs"):
                # An empty export response, as the collector answers a protobuf export.
                self.answer(200, b"", self.headers.get("Content-Type", "application/x-protobuf"))
            else:
                self.answer(404)

    serve_http(port, Otlp)
    threading.Event().wait()


def accept_and_close(port):
    listener = socket.create_server(("0.0.0.0", port))
    log(f"listening on :{port} (TCP, accepted and closed)")

    def loop():
        while True:
            connection, _ = listener.accept()
            connection.close()

    threading.Thread(target=loop, daemon=True).start()


def jaeger(_arguments):
    accept_and_close(4317)

    class Ui(QuietHandler):
        def do_GET(self):
            self.answer(200, b"jaeger stand-in\n", "text/plain")

    serve_http(16686, Ui)
    threading.Event().wait()


MESSAGES = []
MESSAGES_LOCK = threading.Lock()


class Smtp(socketserver.StreamRequestHandler):
    def reply(self, line):
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self):
        self.reply("220 mailpit stand-in ESMTP")
        sender, recipients = None, []
        while True:
            line = self.rfile.readline()
            if not line:
                return
            command = line.decode("utf-8", "replace").strip()
            verb = command.split(" ", 1)[0].upper()
            if verb in ("EHLO", "HELO"):
                self.wfile.write(b"250-mailpit stand-in\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n"
                                 if verb == "EHLO" else b"250 mailpit stand-in\r\n")
            elif verb == "MAIL":
                sender, recipients = command[10:].strip().strip("<>").split(">")[0], []
                self.reply("250 OK")
            elif verb == "RCPT":
                recipients.append(command[8:].strip().strip("<>").split(">")[0])
                self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 end with <CRLF>.<CRLF>")
                data = b""
                while True:
                    chunk = self.rfile.readline()
                    if not chunk or chunk in (b".\r\n", b".\n"):
                        break
                    data += chunk[1:] if chunk.startswith(b"..") else chunk
                message = message_from_bytes(data, policy=default_policy)
                body = message.get_body(preferencelist=("plain", "html"))
                with MESSAGES_LOCK:
                    MESSAGES.append({
                        "ID": str(len(MESSAGES) + 1),
                        "From": {"Address": sender},
                        "To": [{"Address": r} for r in recipients],
                        "Subject": str(message.get("Subject", "")),
                        "Text": body.get_content() if body is not None else "",
                    })
                log(f"received mail from {sender} to {', '.join(recipients)}: "
                    f"{message.get('Subject', '')}")
                self.reply("250 OK: queued")
            elif verb in ("RSET", "NOOP"):
                self.reply("250 OK")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("502 command not implemented")


def mailpit(_arguments):
    class Api(QuietHandler):
        def do_GET(self):
            path = self.path.split("?")[0]
            with MESSAGES_LOCK:
                messages = list(MESSAGES)
            if path == "/api/v1/messages":
                # Newest first, with a snippet of the text, as Mailpit lists them.
                listed = [dict({k: v for k, v in m.items() if k != "Text"},
                               Snippet=m["Text"][:250]) for m in reversed(messages)]
                self.answer(200, json.dumps({"total": len(listed), "messages": listed}).encode())
            elif path.startswith("/api/v1/message/"):
                found = [m for m in messages if m["ID"] == path.rsplit("/", 1)[1]]
                self.answer(200 if found else 404, json.dumps(found[0] if found else {}).encode())
            else:
                self.answer(200, b"mailpit stand-in\n", "text/plain")

    serve_http(8025, Api)
    socketserver.ThreadingTCPServer.allow_reuse_address = True
    smtp = socketserver.ThreadingTCPServer(("0.0.0.0", 1025), Smtp)
    log("listening on :1025 (SMTP)")
    smtp.serve_forever()


if __name__ == "__main__":
    # As a container's first process, Python would ignore `podman stop`'s SIGTERM.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    roles = {"otel-collector": otel_collector, "jaeger": jaeger, "mailpit": mailpit}
    if len(sys.argv) < 2 or sys.argv[1] not in roles:
        sys.exit(f"usage: standin.py {{{'|'.join(roles)}}} [arguments]")
    roles[sys.argv[1]](sys.argv[2:])
