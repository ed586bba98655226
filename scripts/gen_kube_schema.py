#!/usr/bin/env python3
"""Generates src/io/generated/kube_schema_tables.cc: the JSON field names and
Go types of the Kubernetes API structs gpusched decodes strictly, read from the
Go sources of k8s.io/api and k8s.io/apimachinery (json tags), so that strict
decoding knows every valid field and the Go type names kubectl's errors print.

Its inputs are pinned: scripts/gen_kube_schema.sha256 names each upstream
file (repository, commit or tag, path) with the sha256 of its content, and
scripts/gen_kube_schema.inputs/ holds a gzipped copy of each, so that the
table can be regenerated and checked offline:

  scripts/gen_kube_schema.py --pinned > src/io/generated/kube_schema_tables.cc
  scripts/gen_kube_schema.py --pinned --check src/io/generated/kube_schema_tables.cc

--pinned first checks every copy against its sha256 (exit 2 on a mismatch);
--check then compares the table it would write with FILE (exit 1, with the
first differing lines, when they differ). ctest runs the latter as
KubeSchemaTablesFresh. To move a pin, edit its commit or tag in the sha256
list and refresh the copies and sums from checkouts of the two repositories:

  scripts/gen_kube_schema.py --pin API_CHECKOUT MACHINERY_CHECKOUT

The generator itself also reads files given on the command line:

  scripts/gen_kube_schema.py CORE_TYPES_GO APPS_GO BATCH_GO SCHEDULING_GO META_GO API_COMMIT MACHINERY_COMMIT \
      [POLICY_GO SCHEDULING_V1ALPHA1_GO SCHEDULING_V1ALPHA2_GO CORE_V135_GO V1ALPHA1_TAG V1ALPHA2_TAG]

The optional files add what gpusched reads for gangs and preemption:
policy/v1 (PodDisruptionBudget), the Workload API of v1.35
(scheduling/v1alpha1, k8s.io/api v0.35.0) and of v1.36 (scheduling/v1alpha2,
v0.36.0), and PodSpec.workloadRef, which v1.35 clusters accept and later
k8s.io/api tombstoned (core/v1 of v0.35.0). The Workload API's structs are
found by apiVersion and kind (FindKindSchema): their Go names repeat.
"""
import contextlib
import gzip
import hashlib
import io
import os
import re
import subprocess
import sys

# Structs whose fields are checked (unknown fields refused); every other
# struct is only checked to be an object.
CHECKED = {
    'core': ['Pod', 'PodSpec', 'PodStatus', 'Container', 'ResourceRequirements', 'Toleration', 'Affinity',
             'NodeAffinity', 'NodeSelector', 'NodeSelectorTerm', 'NodeSelectorRequirement',
             'PreferredSchedulingTerm', 'PodAffinity', 'PodAntiAffinity', 'PodAffinityTerm',
             'WeightedPodAffinityTerm', 'Node', 'NodeSpec', 'NodeStatus', 'Taint', 'PodTemplateSpec',
             'TopologySpreadConstraint', 'PodSchedulingGate', 'PodResourceClaim', 'ResourceClaim',
             'ContainerPort', 'EnvVar', 'VolumeMount', 'PodList', 'NodeList'],
    'apps': ['Deployment', 'DeploymentSpec', 'ReplicaSet', 'ReplicaSetSpec', 'StatefulSet', 'StatefulSetSpec',
             'DaemonSet', 'DaemonSetSpec'],
    'batch': ['Job', 'JobSpec', 'CronJob', 'CronJobSpec', 'JobTemplateSpec'],
    'sched': ['PriorityClass'],
    'meta': ['ObjectMeta', 'OwnerReference', 'LabelSelector', 'LabelSelectorRequirement', 'TypeMeta', 'ListMeta'],
}
# The optional packages (gangs and preemption): checked structs, and the top-level kinds
# FindKindSchema finds by apiVersion.
CHECKED_EXTRA = {
    'policy': ['PodDisruptionBudget', 'PodDisruptionBudgetSpec'],
    'sched1a1': ['Workload', 'WorkloadSpec', 'TypedLocalObjectReference', 'PodGroup', 'PodGroupPolicy',
                 'BasicSchedulingPolicy', 'GangSchedulingPolicy'],
    'sched1a2': ['Workload', 'WorkloadSpec', 'TypedLocalObjectReference', 'PodGroupTemplate',
                 'PodGroupSchedulingPolicy', 'BasicSchedulingPolicy', 'GangSchedulingPolicy', 'PodGroup',
                 'PodGroupSpec', 'PodGroupTemplateReference', 'WorkloadPodGroupTemplateReference'],
}
KINDS_EXTRA = [('policy/v1', 'policy', 'PodDisruptionBudget'),
               ('scheduling.k8s.io/v1alpha1', 'sched1a1', 'Workload'),
               ('scheduling.k8s.io/v1alpha2', 'sched1a2', 'Workload'),
               ('scheduling.k8s.io/v1alpha2', 'sched1a2', 'PodGroup')]
# Go package names as reflect prints them.
GO_PKG = {'sched1a1': 'v1alpha1', 'sched1a2': 'v1alpha2'}
# Packages whose struct names repeat others': left out of FindStructSchema.
VERSIONED = {'sched1a1', 'sched1a2'}
# Types that read themselves (UnmarshalJSON): any JSON value is theirs to judge.
CUSTOM = {'resource.Quantity': 'resource.Quantity', 'intstr.IntOrString': 'intstr.IntOrString',
          'metav1.Time': 'v1.Time', 'Time': 'v1.Time', 'metav1.MicroTime': 'v1.MicroTime',
          'metav1.Duration': 'v1.Duration', 'runtime.RawExtension': 'runtime.RawExtension',
          'metav1.FieldsV1': 'v1.FieldsV1', 'FieldsV1': 'v1.FieldsV1', 'MicroTime': 'v1.MicroTime'}
INTS = {'int32': 'kInt32', 'int64': 'kInt64', 'int': 'kInt64', 'uint32': 'kUint32', 'uint64': 'kUint64',
        'int16': 'kInt32', 'uint16': 'kUint32', 'uint8': 'kUint32', 'int8': 'kInt32'}

def parse(path, pkg):
    src = read_text(path)
    structs, named = {}, {}
    for m in re.finditer(r'^type (\w+) struct \{\n(.*?)^\}', src, re.S | re.M):
        fields = []
        for line in m.group(2).split('\n'):
            line = line.strip()
            if not line or line.startswith('//'):
                continue
            fm = re.match(r'^(?:(\w+)\s+)?([\w\.\*\[\]]+)\s+`json:"([^"]*)"', line)
            if not fm:
                continue
            name, typ, tag = fm.groups()
            json_name = tag.split(',')[0]
            if ',inline' in tag or (name is None and json_name == ''):
                fields.append(('__inline__', typ))
                continue
            if json_name == '-':
                continue
            fields.append((json_name, typ))
        structs[m.group(1)] = fields
    for m in re.finditer(r'^type (\w+) ((?:\[\]|map\[\w+\]|\*)?[\w\.]+)\s*$', src, re.M):
        named[m.group(1)] = m.group(2)
    return structs, named

def read_text(path):
    """A Go source file, or its gzipped copy (*.gz), as text."""
    with open(path, 'rb') as f:
        data = f.read()
    if path.endswith('.gz'):
        data = gzip.decompress(data)
    return data.decode('utf-8')

PKGS = {}
def generate(argv):
    """The table for the command-line arguments argv, as text."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        emit(argv)
    return out.getvalue()

def emit(argv):
    core, apps, batch, sched, meta, api_commit, machinery_commit = argv[0:7]
    for key, path in [('core', core), ('apps', apps), ('batch', batch), ('sched', sched), ('meta', meta)]:
        PKGS[key] = parse(path, key)
    extra = len(argv) > 7
    if extra:
        policy, s1a1, s1a2, core135, tag1a1, tag1a2 = argv[7:13]
        for key, path in [('policy', policy), ('sched1a1', s1a1), ('sched1a2', s1a2)]:
            PKGS[key] = parse(path, key)
        CHECKED.update(CHECKED_EXTRA)
        # PodSpec.workloadRef of v1.35 (tombstoned since): its struct from
        # v0.35.0, checked, and the field added to PodSpec.
        old_core = parse(core135, 'core')[0]
        PKGS['core'][0]['WorkloadReference'] = old_core['WorkloadReference']
        PKGS['core'][0]['PodSpec'].append(('workloadRef', '*WorkloadReference'))
        CHECKED['core'].append('WorkloadReference')

    def lookup(typ, pkg):
        """(package key, bare name) of a named type used in package pkg."""
        if typ.startswith('metav1.'):
            return 'meta', typ[7:]
        if typ.startswith('v1.') or typ.startswith('corev1.') or typ.startswith('apiv1.'):
            return 'core', typ.split('.', 1)[1]
        if '.' in typ:
            return None, typ
        return pkg, typ

    out_structs = {}
    order = []

    def go_name(typ, pkg):
        """reflect.Type.String() of typ (pointers stripped: Go reports the element)."""
        typ = typ.lstrip('*')
        if typ.startswith('[]'):
            return '[]' + go_name(typ[2:], pkg)
        if typ.startswith('map['):
            k, v = re.match(r'map\[(\w+)\](.*)', typ).groups()
            return 'map[%s]%s' % (k, go_name(v, pkg))
        if typ in CUSTOM:
            return CUSTOM[typ]
        if typ in ('string', 'bool', 'float64', 'float32') or typ in INTS:
            return typ
        p, n = lookup(typ, pkg)
        if p is None:
            return typ
        return 'types.UID' if n == 'UID' and p == 'meta' else GO_PKG.get(p, 'v1') + '.' + n

    def kind(typ, pkg):
        """(kind, struct key or None, element kind, element struct) of a Go type."""
        typ = typ.lstrip('*')
        if typ in CUSTOM:
            return ('kAny', None)
        if typ == 'types.UID':
            return ('kString', None)
        if typ == 'string':
            return ('kString', None)
        if typ == 'bool':
            return ('kBool', None)
        if typ in ('float64', 'float32'):
            return ('kFloat', None)
        if typ in INTS:
            return (INTS[typ], None)
        if typ.startswith('[]'):
            if typ == '[]byte':
                return ('kString', None)
            return ('kSlice', None)
        if typ.startswith('map['):
            return ('kMap', None)
        p, n = lookup(typ, pkg)
        if p is None:
            return ('kAny', None)
        structs, named = PKGS[p]
        if n in structs:
            return ('kStruct', (p, n))
        if n in named:
            base = named[n]
            k = kind(base if not base.startswith('[]') and not base.startswith('map[') else base, p)
            return k
        if n in ('Time', 'MicroTime', 'Duration', 'FieldsV1'):
            return ('kAny', None)
        return ('kAny', None)

    def elem(typ, pkg):
        typ = typ.lstrip('*')
        p, n = lookup(typ, pkg)
        if typ.startswith('[]'):
            return typ[2:], pkg
        if typ.startswith('map['):
            return re.match(r'map\[\w+\](.*)', typ).group(1), pkg
        if p is not None and n in PKGS[p][1]:
            base = PKGS[p][1][n]
            return elem(base, p)
        return None, pkg

    def describe(typ, pkg):
        """C++ FieldType initializer for a value of Go type typ."""
        k, st = kind(typ, pkg)
        d = {'kind': k, 'go': go_name(typ, pkg), 'struct': None, 'elem': None}
        if k == 'kStruct':
            d['struct'] = st
            want(st)
        if k in ('kSlice', 'kMap'):
            et, ep = elem(typ, pkg)
            d['elem'] = describe(et, ep)
        return d

    def want(key):
        if key in out_structs or key == 'pending':
            return
        out_structs[key] = 'pending'
        p, n = key
        fields = []
        for json_name, typ in PKGS[p][0][n]:
            if json_name == '__inline__':
                t = typ.lstrip('*')
                ip, iname = lookup(t, p)
                for f in PKGS[ip][0][iname]:
                    fields.append((f[0], describe(f[1], ip)))
                continue
            fields.append((json_name, describe(typ, p)))
        out_structs[key] = fields
        order.append(key)

    for p, names in CHECKED.items():
        for n in names:
            want((p, n))

    checked = {(p, n) for p, names in CHECKED.items() for n in names}
    print('// Generated by scripts/gen_kube_schema.py from k8s.io/api %s and' % api_commit)
    if extra:
        print('// k8s.io/apimachinery %s (json tags of the types.go files), with' % machinery_commit)
        print('// scheduling/v1alpha1 and PodSpec.workloadRef of k8s.io/api %s and scheduling/v1alpha2 of %s.' %
              (tag1a1, tag1a2))
        print('// Do not edit.')
    else:
        print('// k8s.io/apimachinery %s (json tags of the types.go files). Do not edit.' % machinery_commit)
    print('#include "gpusched/io/kube_schema.h"\n')
    print('namespace gpusched {\nnamespace {\n')
    def cname(key):
        return 'k%s_%s' % (key[0].capitalize(), key[1])
    for key in order:
        print('extern const StructSchema %s;' % cname(key))
    print()
    counter = [0]
    def emit_type(d):
        elem_ref = 'nullptr'
        if d['elem'] is not None:
            counter[0] += 1
            nm = 'kElem%d' % counter[0]
            inner = emit_type(d['elem'])
            print('const FieldType %s = %s;' % (nm, inner))
            elem_ref = '&' + nm
        st = '&' + cname(d['struct']) if d['struct'] else 'nullptr'
        return '{FieldKind::%s, "%s", %s, %s}' % (d['kind'], d['go'], st, elem_ref)
    bodies = []
    for key in order:
        fields = out_structs[key]
        rows = []
        for json_name, d in fields:
            rows.append('    {"%s", %s},' % (json_name, emit_type(d)))
        bodies.append((key, rows))
    for key, rows in bodies:
        if not rows:
            # An empty struct (BasicSchedulingPolicy): no zero-length array.
            print('const StructSchema %s = {"%s", %s, nullptr, 0};\n' %
                  (cname(key), key[1], 'true' if key in checked else 'false'))
            continue
        print('const FieldSchema %sFields[] = {' % cname(key))
        print('\n'.join(rows))
        print('};')
        print('const StructSchema %s = {"%s", %s, %sFields, sizeof(%sFields) / sizeof(%sFields[0])};\n' %
              (cname(key), key[1], 'true' if key in checked else 'false', cname(key), cname(key), cname(key)))
    print('}  // namespace\n')
    print('const StructSchema* FindStructSchema(std::string_view name) {')
    print('  static const StructSchema* const kAll[] = {%s};' % ', '.join('&' + cname(k) for k in order
                                                                      if k[0] not in VERSIONED))
    print('  for (const StructSchema* s : kAll)')
    print('    if (name == s->go_name) return s;')
    print('  return nullptr;\n}\n')
    print('const StructSchema* FindKindSchema(std::string_view api_version, std::string_view kind) {')
    if extra:
        print('  struct Entry {')
        print('    const char* api_version;')
        print('    const char* kind;')
        print('    const StructSchema* schema;')
        print('  };')
        print('  static const Entry kKinds[] = {%s};' % ', '.join(
            '{"%s", "%s", &%s}' % (gv, n, cname((p, n))) for gv, p, n in KINDS_EXTRA))
        print('  for (const Entry& e : kKinds)')
        print('    if (api_version == e.api_version && kind == e.kind) return e.schema;')
    print('  const StructSchema* s = FindStructSchema(kind);')
    print('  return s;')
    print('}\n')
    print('std::vector<const StructSchema*> AllStructSchemas() {')
    print('  return {%s};' % ', '.join('&' + cname(k) for k in order))
    print('}\n\n}  // namespace gpusched')

HERE = os.path.dirname(os.path.abspath(__file__))
PIN_LIST = os.path.join(HERE, 'gen_kube_schema.sha256')
INPUT_DIR = os.path.join(HERE, 'gen_kube_schema.inputs')
# Where --pin finds each repository of the pin list.
REPOS = ['k8s.io/api', 'k8s.io/apimachinery']

def read_pins():
    """{input name: (sha256, repository, ref, path)} from the pin list."""
    pins = {}
    for line in open(PIN_LIST, encoding='utf-8'):
        if not line.strip() or line.startswith('#'):
            continue
        digest, name, source = line.split()
        repo, rest = source.split('@', 1)
        ref, path = rest.split(':', 1)
        pins[name] = (digest, repo, ref, path)
    return pins

def pinned_argv():
    """The generator's arguments for the pinned inputs, once each copy has
    been checked against its sha256; exits 2 when one does not match."""
    pins = read_pins()
    bad = []
    for name, (digest, repo, ref, path) in pins.items():
        copy = os.path.join(INPUT_DIR, name + '.gz')
        got = hashlib.sha256(gzip.decompress(open(copy, 'rb').read())).hexdigest() if os.path.exists(copy) else None
        if got != digest:
            root = os.path.dirname(HERE)
            bad.append('%s: %s is not %s@%s:%s (sha256 %s, pinned %s)' % (
                os.path.relpath(PIN_LIST, root), os.path.relpath(copy, root), repo, ref, path,
                got or 'missing', digest))
    if bad:
        print('\n'.join(bad), file=sys.stderr)
        sys.exit(2)
    f = lambda n: os.path.join(INPUT_DIR, n + '.gz')
    ref = lambda n: pins[n][2]
    return [f('core.go'), f('apps.go'), f('batch.go'), f('scheduling.go'), f('meta.go'), ref('core.go'),
            ref('meta.go'), f('policy.go'), f('s1a1.go'), f('s1a2.go'), f('core135.go'), ref('s1a1.go'),
            ref('s1a2.go')]

def pin(checkouts):
    """Refreshes the copies and the sums of the pin list from git checkouts
    of REPOS (in that order), at the refs the list names."""
    dirs = dict(zip(REPOS, checkouts))
    os.makedirs(INPUT_DIR, exist_ok=True)
    lines = []
    for line in open(PIN_LIST, encoding='utf-8'):
        if not line.strip() or line.startswith('#'):
            lines.append(line)
            continue
        _, name, source = line.split()
        repo, rest = source.split('@', 1)
        data = subprocess.run(['git', '-C', dirs[repo], 'show', rest], check=True, capture_output=True).stdout
        with open(os.path.join(INPUT_DIR, name + '.gz'), 'wb') as f:
            f.write(gzip.compress(data, 9, mtime=0))
        lines.append('%s  %s  %s\n' % (hashlib.sha256(data).hexdigest(), name, source))
    with open(PIN_LIST, 'w', encoding='utf-8') as f:
        f.writelines(lines)

def check(table, path):
    """0 when the file at path is exactly `table`, else 1 with the first
    differing lines."""
    have = read_text(path) if os.path.exists(path) else ''
    if have == table:
        print('%s: as scripts/gen_kube_schema.py writes it from its pinned inputs' % path)
        return 0
    want_lines, have_lines = table.split('\n'), have.split('\n')
    for i, (w, h) in enumerate(zip(want_lines + [''] * len(have_lines), have_lines + [''] * len(want_lines))):
        if w != h:
            print('%s:%d: differs from what scripts/gen_kube_schema.py --pinned writes:\n'
                  '  file:      %s\n  generated: %s' % (path, i + 1, h, w))
            break
    else:
        print('%s: differs from what scripts/gen_kube_schema.py --pinned writes in its line count' % path)
    print('regenerate it with scripts/gen_kube_schema.py --pinned > %s' % path)
    return 1

def main(args):
    if args[:1] == ['--pin']:
        return pin(args[1:3])
    if args[:1] == ['--pinned']:
        table = generate(pinned_argv())
        if args[1:2] == ['--check']:
            return check(table, args[2])
        sys.stdout.write(table)
        return 0
    sys.stdout.write(generate(args))
    return 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
