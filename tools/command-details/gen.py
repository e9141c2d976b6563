"""Writes Lacewing's command-details resource from a running redis-server 7.0's COMMAND INFO/DOCS."""
import sys
from resp import Conn
port = int(sys.argv[1]); names = sys.argv[2].split(','); subs = dict(s.split('=') for s in sys.argv[3].split(';'))
c = Conn(port); c.call('HELLO', '3')
IMPLICIT = {'write': 'write', 'readonly': 'read', 'admin': 'admin', 'pubsub': 'pubsub', 'fast': 'fast', 'blocking': 'blocking'}

def tok(s):
    s = str(s)
    if s and all(ch not in ' "\\=' for ch in s) and s.isprintable():
        return s
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'

def vals(x): return [v[1] if isinstance(v, tuple) else v for v in x]

out = []
def command(info, docs):
    name = info[0]; flags = vals(info[2]); acl = [a[1:] for a in vals(info[6])]
    implicit = {IMPLICIT[f] for f in flags if f in IMPLICIT}
    if 'admin' in flags: implicit.add('dangerous')
    if 'fast' not in acl: implicit.add('slow')
    out.append('command ' + name)
    explicit = [a for a in acl if a not in implicit]
    if explicit: out.append('  acl ' + ' '.join(explicit))
    for t in info[7]: out.append('  tip ' + tok(t))
    for spec in info[8]:
        d = dict(spec); line = '  key ' + ','.join(vals(d['flags']))
        b = dict(d['begin_search']); bs = dict(b['spec'])
        if b['type'] == 'index': line += ' index %d' % bs['index']
        elif b['type'] == 'keyword': line += ' keyword %s %d' % (tok(bs['keyword']), bs['startfrom'])
        else: line += ' unknown'
        f = dict(d['find_keys']); fs = dict(f['spec'])
        if f['type'] == 'range': line += ' range %d %d %d' % (fs['lastkey'], fs['keystep'], fs['limit'])
        elif f['type'] == 'keynum': line += ' keynum %d %d %d' % (fs['keynumidx'], fs['firstkey'], fs['keystep'])
        else: line += ' unknown'
        if 'notes' in d: line += ' notes=' + tok(d['notes'])
        out.append(line)
    d = dict(docs)
    for k in ('since', 'complexity', 'deprecated_since', 'replaced_by'):
        if k in d: out.append('  %s %s' % (k, tok(d[k])))
    for f in vals(d.get('doc_flags', [])): out.append('  doc_flag ' + f)
    for v, text in d.get('history', []): out.append('  history %s %s' % (tok(v), tok(text)))
    def args(lst, depth):
        for a in lst:
            a = dict(a); line = '  ' * depth + 'arg %s %s' % (tok(a['name']), a['type'])
            for k in ('key_spec_index', 'token', 'summary', 'since', 'deprecated_since'):
                if k in a: line += ' %s=%s' % (k, tok(a[k]))
            for f in vals(a.get('flags', [])): line += ' ' + f
            out.append(line); args(a.get('arguments', []), depth + 1)
    args(d.get('arguments', []), 1)
    subdocs = dict(d.get('subcommands', []))
    for sub in sorted(info[9], key=lambda e: e[0]):
        if sub[0].split('|')[1] in subs.get(name, '').split(','):
            command(sub, subdocs[sub[0]])

infos = c.call('COMMAND', 'INFO', *names)
docs = dict(c.call('COMMAND', 'DOCS', *names))
for info in infos: command(info, docs[info[0]])
print('\n'.join(out))
