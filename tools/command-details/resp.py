import socket
class Conn:
    def __init__(s, port):
        s.sock = socket.create_connection(('127.0.0.1', port)); s.f = s.sock.makefile('rb')
    def call(s, *args):
        a = [x.encode() if isinstance(x, str) else x for x in args]
        s.sock.sendall(b'*%d\r\n' % len(a) + b''.join(b'$%d\r\n%s\r\n' % (len(x), x) for x in a))
        return s.read()
    def read(s):
        line = s.f.readline()[:-2]; t = chr(line[0]); rest = line[1:]
        if t in '+': return ('simple', rest.decode())
        if t == '-': return ('error', rest.decode())
        if t == ':': return int(rest)
        if t == '$':
            n = int(rest)
            if n < 0: return None
            d = s.f.read(n + 2)[:-2]; return d.decode()
        if t in '*~':
            n = int(rest)
            if n < 0: return None
            return [s.read() for _ in range(n)]
        if t == '%':
            n = int(rest); return [(s.read(), s.read()) for _ in range(n)]
        if t == '_': return None
        raise Exception(line)
