#!/usr/bin/env python3
"""Re-records Redis's answers in redis-7.0.15-cases.tsv beside this file.

Usage: start redis-server 7.0.15 (redis-server --port 7391 --save '' --daemonize yes), then
    python3 record-redis-answers.py 7391
Each line is "library<TAB>snippet<TAB>answer"; a new case is a line with the answer left empty.
Each snippet runs as EVAL after cjson's settings are put back to their defaults (they outlive a
script in Redis), wrapped exactly as RedisLuaLibrariesTest wraps it, with render.lua printing
pcall's results and numbers as %.17g.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, 'redis-7.0.15-cases.tsv')
RESET = ("cjson.encode_invalid_numbers(false) cjson.decode_invalid_numbers(true) "
         "cjson.encode_max_depth(1000) cjson.decode_max_depth(1000) cjson.encode_number_precision(14) "
         "cjson.encode_sparse_array(false, 2, 10) cjson.encode_keep_buffer(true) ")
FMTNUM = "local fmtnum = function(n) return string.format('%.17g', n) end "


def answer(port, render, body):
    last = body.rfind('return ')
    wrapped = body[:last] + 'local __r = P(' + body[last + 7:] + ') return unpack(__r, 1, __r.n)'
    script = RESET + FMTNUM + render + ' return R(pcall(function() ' + wrapped + ' end))'
    out = subprocess.run(['redis-cli', '-p', port, '--no-raw', 'EVAL', script, '0'],
                         capture_output=True, check=True).stdout.decode('latin-1').rstrip('\n')
    if not (out.startswith('"') and out.endswith('"')):
        raise SystemExit('unexpected reply for %r: %s' % (body, out))
    return bytes(out[1:-1], 'latin-1').decode('unicode_escape')


def main():
    port = sys.argv[1] if len(sys.argv) > 1 else '7391'
    render = open(os.path.join(HERE, 'render.lua'), encoding='latin-1').read().strip()
    lines = []
    for line in open(CASES, encoding='latin-1').read().splitlines():
        library, body = line.split('\t')[:2]
        lines.append(library + '\t' + body + '\t' + answer(port, render, body))
    open(CASES, 'w', encoding='latin-1').write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
