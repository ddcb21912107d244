#!/usr/bin/env python3
"""Drive the inr-payouts mock server from Python with the standard library only.

Loads the server's helpers document (`/openapi.mock.json`), finds the test helpers it describes, points the
account's webhooks at a local receiver, triggers a webhook with custom data, and verifies the delivery's
signature as spec 6.3 says (HMAC-SHA256 over "<t>.<raw body>", constant-time compare, 300 s tolerance).

    npx inr-payouts-mock --speed manual &
    python3 examples/python/mock_client.py http://127.0.0.1:4010
"""

import hashlib
import hmac
import json
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

TOLERANCE_SECONDS = 300


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def helper_paths(document):
    """The helpers' paths by operation id (`webhooks.trigger`), as the helpers' document lists them."""
    paths = {}
    for path, item in document["paths"].items():
        operation = item.get("post")
        if operation:
            paths[operation["operationId"]] = path
    return paths


def call_helper(base, paths, name, body=None):
    """POSTs the helper's JSON object body (none for a helper that takes nothing) and returns its `data`."""
    request = urllib.request.Request(
        base + paths[name],
        data=None if body is None else json.dumps(body).encode(),
        headers={} if body is None else {"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)["data"]
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{name} answered {error.code}: {error.read().decode()}") from None


def verify(raw_body, header, secret, now=None):
    """Spec 6.3: returns the parsed event, or raises ValueError saying why the delivery is refused."""
    parts = dict(part.split("=", 1) for part in (header or "").split(",") if "=" in part)
    if "t" not in parts or "v1" not in parts:
        raise ValueError("malformed signature header")
    timestamp = int(parts["t"])
    if abs((now or time.time()) - timestamp) > TOLERANCE_SECONDS:
        raise ValueError("timestamp outside the 300 s tolerance")
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + raw_body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, parts["v1"]):
        raise ValueError("signature does not match")
    return json.loads(raw_body)


def start_receiver(secret):
    """A webhook receiver on a free local port; verified events land in `received`."""
    received = []

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                event = verify(raw, self.headers.get("X-Service-Signature"), secret)
            except ValueError as reason:
                self.send_response(401)
                self.end_headers()
                self.wfile.write(str(reason).encode())
                return
            received.append(event)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, received


def main(base):
    # The test helpers have a document of their own, beside the API's /openapi.json.
    document = get_json(base + "/openapi.mock.json")
    assert document["openapi"].startswith("3.1"), document["openapi"]
    paths = helper_paths(document)

    secret = call_helper(base, paths, "accounts.get")["webhookSecret"]
    receiver, received = start_receiver(secret)
    try:
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hooks"
        call_helper(base, paths, "accounts.update", {"webhookUrl": url})

        overrides = {"code": "BANK_ACCOUNT_INVALID", "reason": "Account closed"}
        event = call_helper(base, paths, "webhooks.trigger", {"type": "transaction.payout_failed", "data": overrides})
        # The delivery is due at once; on a manual clock it runs when the clock is told to.
        call_helper(base, paths, "clock.runDue")

        delivered = [e for e in received if e["id"] == event["id"]]
        if not delivered:
            raise SystemExit("the triggered event was not received")
        data = delivered[0]["data"]
        if data["code"] != overrides["code"] or data["reason"] != overrides["reason"]:
            raise SystemExit(f"the overrides did not arrive: {data}")

        # A signature made for another body is refused by the same check.
        signed = call_helper(base, paths, "webhooks.sign", {"payload": {"hello": "world"}})
        try:
            verify(b'{"hello":"mars"}', signed["signature"], secret, now=signed["timestamp"])
            raise SystemExit("a tampered body passed verification")
        except ValueError:
            pass
        verify(signed["body"].encode(), signed["signature"], secret, now=signed["timestamp"])

        print(json.dumps({"received": delivered[0]["event"], "code": data["code"], "verified": True}))
    finally:
        receiver.shutdown()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:4010")
