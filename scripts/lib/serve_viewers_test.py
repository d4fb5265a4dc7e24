#!/usr/bin/env python3
"""Checks scripts/lib/serve_viewers.c against a small server on loopback that answers as okit-run serve does, and
then badly: the viewers keep and send their cookies, see a stale event split over two packets, find the new name
in a chunked page split between chunks, and report — without crashing or hanging — a server that closes without
an answer, sends part of an answer, a malformed head, a head without end, or a malformed chunk, and a port where
nothing listens; with `keep-alive`, re-GETs go over the viewers' kept connections, and a new one replaces one the
server closed. Prints what failed and exits 1, or prints "serve_viewers: all checks passed".

Usage: python3 scripts/lib/serve_viewers_test.py     (compiles .build/serve_viewers when needed)"""
import asyncio, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_http import Answer, Target, free_port
from serve_viewers import NativeViewers, native_binary

NAME = "Alpha Alpha Alpha push 1"
PAGE = f"<html><body><p>{NAME}</p></body></html>".encode()


class FakeServe:
    """`/books` (chunked, the name split between two chunks, a session cookie), `/events` (a stream), and each
    bad answer at its own path; `push()` sends every stream a stale event in two packets."""

    def __init__(self):
        self.streams, self.cookieless, self.sessions = [], [], 0

    async def answer(self, reader, writer):
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode()
            path = head.split(" ")[1]
            cookie = "Cookie: session=" in head
            if path == "/events" and not cookie:
                self.cookieless.append(path)
            if path == "/events":
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: open\n\n")
                self.streams.append(writer)
                return
            await self.bad(path, writer) if path != "/books" else self.books(writer, cookie)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        writer.close()

    def books(self, writer, cookie):
        extra = b""
        if not cookie:
            self.sessions += 1
            extra = f"Set-Cookie: session=s{self.sessions}; Path=/; HttpOnly\r\nSet-Cookie: route=a\r\n".encode()
        cut = PAGE.index(NAME.encode()) + 5
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in (PAGE[:cut], PAGE[cut:])) + b"0\r\n\r\n"
        writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n" + extra + b"\r\n" + chunks)

    async def bad(self, path, writer):
        if path == "/partial":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly this")
        elif path == "/garbage":
            writer.write(b"HELLO THERE\r\n\r\n")
        elif path == "/endless":
            writer.write(b"HTTP/1.1 200 OK\r\n" + b"X-Long: " + b"a" * 100000)
        elif path == "/badchunk":
            writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n")
        # /close: nothing at all

    async def push(self):
        for w in self.streams:
            w.write(b"event: st")
        await asyncio.sleep(0.05)
        for w in self.streams:
            w.write(b"ale\ndata: x\n\n")


class KeptServe:
    """`/books` as a browser's kept connection meets it (`keep-alive`): a page with a Content-Length, the connection
    left open for the next request — and closed by the server after every fourth answer, as an idle limit closes
    one; `/events` a stream. Counts the page connections and requests."""

    def __init__(self):
        self.connections, self.requests, self.sessions, self.closing_asked, self.streams = 0, 0, 0, 0, []

    async def answer(self, reader, writer):
        try:
            first = True
            while True:
                head = (await reader.readuntil(b"\r\n\r\n")).decode()
                if head.split(" ")[1] == "/events":
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: open\n\n")
                    self.streams.append(writer)
                    return
                self.connections += first
                first = False
                self.requests += 1
                self.closing_asked += "Connection: close" in head
                extra = b""
                if "Cookie: session=" not in head:
                    self.sessions += 1
                    extra = b"Set-Cookie: session=k%d\r\n" % self.sessions
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n" % len(PAGE) + extra + b"\r\n" + PAGE)
                await writer.drain()
                if self.requests % 4 == 0:
                    break
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        writer.close()

    push = FakeServe.push


async def kept_connections(problems):
    """With `keep-alive`: three rounds of 5 viewers' re-GETs go over the connections of their first GETs (new ones
    only where the server closed one), every answer complete; a storm over kept connections answers."""
    serve = KeptServe()
    server = await asyncio.start_server(serve.answer, "127.0.0.1", 0)
    viewers = NativeViewers(BINARY, Target("127.0.0.1", server.sockets[0].getsockname()[1]), "/books", keep_alive=True)
    await viewers.start()
    try:
        problem = await viewers.add(5)
        for k in range(3):
            problem = problem or (await viewers.write(FakeWriter(serve), NAME, timeout=10))[0]
        if problem:
            problems.append(f"kept connections: {problem}")
        if serve.requests != 20 or serve.connections > 12 or serve.closing_asked or serve.sessions != 5:
            problems.append(f"kept connections: {serve.requests} page requests over {serve.connections} connections "
                            f"({serve.closing_asked} asked to close, {serve.sessions} sessions) for 5 viewers' 4 GETs")
        if len(await viewers.storm(4)) != 4:
            problems.append("kept connections: a storm of 4 did not answer 4 times")
    finally:
        await viewers.close()
        server.close()


class FakeWriter:
    """The writer's part in a round: its POST "starts", the server pushes, and the POST answers 303."""

    def __init__(self, serve):
        self.serve = serve

    async def rename(self, name):
        import time
        self.sent_ns = time.monotonic_ns()
        await self.serve.push()
        return Answer(303, [], b"")


async def storm_fails(port, path, problems):
    viewers = NativeViewers(BINARY, Target("127.0.0.1", port), path)
    await viewers.start()
    try:
        await viewers.storm(3)
        problems.append(f"{path}: a storm with bad answers did not fail")
    except RuntimeError:
        pass
    except asyncio.TimeoutError:
        problems.append(f"{path}: the storm hung")
    finally:
        await viewers.close()
    if viewers.process.returncode != 0:
        problems.append(f"{path}: serve_viewers exited with {viewers.process.returncode}")


async def main():
    serve, problems = FakeServe(), []
    server = await asyncio.start_server(serve.answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    viewers = NativeViewers(BINARY, Target("127.0.0.1", port), "/books")
    await viewers.start()
    try:
        problem = await viewers.add(5)
        if problem or viewers.count != 5:
            problems.append(f"5 viewers did not join: {viewers.count}, {problem}")
        problem, pushed, got, _ = await viewers.write(FakeWriter(serve), NAME, timeout=10)
        if problem or len(pushed) != 5 or len(got) != 5:
            problems.append(f"a round: {problem}, {len(pushed)} stale events, {len(got)} re-GETs")
        if serve.sessions != 5:
            problems.append(f"the re-GETs did not send their cookies: {serve.sessions} sessions for 5 viewers")
        if serve.cookieless:
            problems.append(f"requests without the session cookie: {serve.cookieless}")
        if len(await viewers.storm(4)) != 4:
            problems.append("a storm of 4 did not answer 4 times")
    finally:
        await viewers.close()
    for path in ("/close", "/partial", "/garbage", "/endless", "/badchunk"):
        await storm_fails(port, path, problems)
    server.close()
    await kept_connections(problems)
    nobody = NativeViewers(BINARY, Target("127.0.0.1", free_port()), "/books")
    await nobody.start()
    problem = await nobody.add(3)
    await nobody.close()
    if not problem or nobody.count != 0:
        problems.append(f"viewers joined where nothing listens: {nobody.count}, {problem}")
    return problems


if __name__ == "__main__":
    BINARY, why = native_binary()
    if not BINARY:
        sys.exit(f"serve_viewers did not compile: {why}")
    found = asyncio.run(main())
    for p in found:
        print("serve_viewers:", p)
    print("serve_viewers: all checks passed" if not found else f"serve_viewers: {len(found)} checks failed")
    sys.exit(1 if found else 0)
