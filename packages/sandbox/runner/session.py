"""The session runner: one per agent attempt, serving requests on its stdin, replies on its stdout.

Usage: session.py serve <kill grace s> <uid or ->. The protocol is described in session-protocol.ts.
In a container it is the sandbox's init (PID 1), started as root with only the SETUID, SETGID and
KILL capabilities: the kernel refuses every signal a command sends it, kill -9 -1 included, so nothing
an agent runs can end its own session; every command runs as the sandbox's uid, every file read or
written for a request with its permissions, and whatever a command leaves behind is killed when its
shell exits (see common.py). Anywhere else (the local driver, on the host) it runs as the user.
"""
import errno
import os
import stat
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import Sandbox, Sink, emit, exit_code, parse_env, run_command  # noqa: E402
from repo_memo import RepoStateMemo  # noqa: E402
from repo_state import NO_LIMIT, read_repo_state  # noqa: E402


FULL_READ = b'GITBENCH_FULL_READ'


def read_exact(n):
    chunks = []
    while n > 0:
        data = os.read(0, min(n, 1048576))
        if not data:
            sys.exit(0)
        chunks.append(data)
        n -= len(data)
    return b''.join(chunks)


def read_line():
    data = bytearray()
    while True:
        c = os.read(0, 1)
        if not c:
            sys.exit(0)
        if c == b'\n':
            return bytes(data)
        data += c


def reply(kind, rid, fields, *payloads):
    head = b'@@GB' + kind + b' ' + rid + b''.join(b' ' + f for f in fields) + b'\n'
    if sum(len(p) for p in payloads) < 1048576:
        emit(head + b''.join(payloads))
    else:
        # A large file is written as it is, not copied once more into one reply.
        for part in (head,) + payloads:
            emit(part)


def failure(rid, message):
    data = message.encode('utf8', 'replace')
    reply(b'ERR', rid, [b'%d' % len(data)], data)


def read_file(path, limit):
    # More than 'limit' bytes is refused (found 2, with the size seen), so neither a huge file nor
    # /dev/zero can exhaust the sandbox's memory. Only a regular file is read: the open does not wait
    # (a FIFO the model made would hold the runner, and the session, until the host gave up on it).
    # Returns (found, size, data).
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return 0, 0, b''
    with open(fd, 'rb') as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, 'not a regular file')
        size = st.st_size
        data = b'' if size > limit else f.read(limit + 1)
    if size > limit or len(data) > limit:
        return 2, max(size, len(data)), b''
    return 1, len(data), data


def write_file(path, data):
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
    # As for a read, the open does not wait on a FIFO, and only a regular file is written.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    with open(fd, 'wb') as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, 'not a regular file')
        f.truncate(0)
        f.write(data)


# io_uring's three system calls (the same numbers on every architecture since 5.1; an x32 call is the
# same number with bit 30 set, cleared below) answer ENOSYS, as in a kernel without it. A third-party
# agent's processes are stopped while the observer reads its repository (observe.py), but an io_uring
# operation already queued in the kernel can still complete then; Docker 20.10's default seccomp
# profile allows io_uring (later ones refuse it). A seccomp filter is inherited across fork and exec
# and can never be removed, so every command of the session, and all it starts, is held to it.
_IO_URING_FIRST, _IO_URING_LAST, _ENOSYS = 425, 427, 38
_NO_IO_URING = [
    (0x20, 0, 0, 0),  # A = seccomp_data.nr
    (0x54, 0, 0, 0xbfffffff),  # A &= ~__X32_SYSCALL_BIT
    (0x35, 0, 2, _IO_URING_FIRST),  # A >= first ? next : allow
    (0x25, 1, 0, _IO_URING_LAST),  # A > last ? allow : refuse
    (0x06, 0, 0, 0x00050000 | _ENOSYS),  # SECCOMP_RET_ERRNO | ENOSYS
    (0x06, 0, 0, 0x7fff0000),  # SECCOMP_RET_ALLOW
]


def refuse_io_uring():
    # Loading ctypes costs tens of milliseconds: paid once per agent session, never per command or by a
    # single answer's runner (batch.py), whose sandbox runs no agent beside an observer.
    import ctypes

    code = b''.join(struct.pack('HBBI', *insn) for insn in _NO_IO_URING)
    filters = ctypes.create_string_buffer(code, len(code))

    class Program(ctypes.Structure):
        _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_void_p)]

    program = Program(len(_NO_IO_URING), ctypes.addressof(filters))
    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_no_new_privs, pr_set_seccomp, seccomp_mode_filter = 38, 22, 2
    for args in ((pr_set_no_new_privs, 1, 0, 0, 0), (pr_set_seccomp, seccomp_mode_filter, ctypes.byref(program), 0, 0)):
        if libc.prctl(*args) != 0:
            e = ctypes.get_errno()
            raise OSError(e, 'prctl: ' + os.strerror(e))


def main():
    grace_s = float(sys.argv[2])
    sandbox = Sandbox(sys.argv[3] if len(sys.argv) > 3 else None)
    if sandbox.uid is not None:
        refuse_io_uring()
    home = os.open('.', os.O_RDONLY)
    devnull = os.open(os.devnull, os.O_RDONLY)
    base_env = dict(os.environb)
    init = os.getpid() == 1
    # The last full read of the repository's state and its fingerprint, answering a read of a repository
    # that has not changed since (repo_memo.py); in the runner's memory, which no command can reach.
    memo = RepoStateMemo()
    while True:
        fields = read_line().split(b' ')
        kind, rid, sizes = fields[0], fields[1], [int(x) for x in fields[2:]]
        try:
            if kind == b'X':
                # X id timeout_ms head tail limit cwd_len cmd_len env_len stdin_len
                timeout_ms, head, tail, limit, cwd_len, cmd_len, env_len, stdin_len = sizes
                cwd, command = read_exact(cwd_len), read_exact(cmd_len)
                env_blob, stdin = read_exact(env_len), read_exact(stdin_len)
                env = dict(base_env)
                env.update(parse_env(env_blob))
                stdin_fd = devnull
                if stdin_len:
                    f = tempfile.TemporaryFile()
                    f.write(stdin)
                    f.seek(0)
                    stdin_fd = f.fileno()
                out, err = Sink(head, tail, limit), Sink(head, tail, limit)
                if b'\0' in command:
                    err.push(b'gitbench: the command contains a NUL byte and was not run\n')
                    status, finished, timed_out, t0, t1 = 126, True, False, time.time(), time.time()
                else:
                    status, finished, timed_out, t0, t1 = run_command(
                        sandbox, command, cwd, timeout_ms / 1000.0, grace_s, out, err, home, stdin_fd, env, init)
                if stdin_fd != devnull:
                    f.close()
                o, e = out.kept(), err.kept()
                reply(b'EXEC', rid, [b'%d' % exit_code(status, timed_out), b'1' if finished else b'0',
                                     b'1' if timed_out else b'0', b'%.6f' % t0, b'%.6f' % t1, b'%d' % out.total,
                                     b'%d' % err.total, b'%d' % len(o), b'%d' % len(e)], o, e)
            elif kind == b'S':
                # S id timeout_ms head tail diff_bytes cwd_len env_len prev_len: the repository's state
                # (repo_state.py)
                timeout_ms, head, tail, diff_bytes, cwd_len, env_len, prev_len = sizes
                cwd, env_blob, prev = read_exact(cwd_len), read_exact(env_len), read_exact(prev_len)
                env = dict(base_env)
                env.update(parse_env(env_blob))
                # Set by a host that measures or checks the full read beside the memo's answer.
                reuse = env.pop(FULL_READ, None) is None
                text, timed_out = read_repo_state(sandbox, cwd, env, prev, diff_bytes, timeout_ms / 1000.0, grace_s,
                                                  home, devnull, init, memo, reuse)
                kept = Sink(head, tail, NO_LIMIT)
                kept.push(text)
                k = kept.kept()
                reply(b'STATE', rid, [b'1' if timed_out else b'0', b'%d' % kept.total, b'%d' % len(k)], k)
            elif kind == b'R':
                path, limit = read_exact(sizes[0]), sizes[1]
                sandbox.acting_start()
                try:
                    found, size, data = read_file(path, limit)
                finally:
                    sandbox.acting_end()
                reply(b'FILE', rid, [b'%d' % found, b'%d' % size], data)
            elif kind == b'W':
                path, data = read_exact(sizes[0]), read_exact(sizes[1])
                sandbox.acting_start()
                try:
                    write_file(path, data)
                finally:
                    sandbox.acting_end()
                reply(b'OK', rid, [])
            elif kind == b'E':
                base_env = parse_env(read_exact(sizes[0]))
                reply(b'OK', rid, [])
            elif kind == b'Q':
                reply(b'OK', rid, [])
                return
            else:
                failure(rid, 'unknown request ' + kind.decode('ascii', 'replace'))
        except OSError as e:
            failure(rid, '%s: %s' % (errno.errorcode.get(e.errno, 'error'), e.strerror or str(e)))
        except ValueError as e:
            # A path the model chose with a NUL byte in it: the request fails, never the runner, whose
            # death would end the session as an excluded sandbox failure.
            failure(rid, str(e))


main()
