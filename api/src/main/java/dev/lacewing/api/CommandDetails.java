package dev.lacewing.api;

import java.util.List;
import java.util.Objects;

/**
 * The optional part of a {@link CommandSpec}: what Redis 7's COMMAND INFO and COMMAND DOCS add to
 * name, arity, flags and key positions. A plugin may leave it {@link #NONE}; its command is then
 * described from the spec alone (a key spec derived from the key positions, ACL categories from the
 * flags and the group, docs with the summary).
 *
 * @param aclCategories ACL categories beyond those the flags imply ({@code string}, {@code keyspace},
 *                      {@code dangerous}...), without the {@code @}
 * @param tips request and response tips ({@code nondeterministic_output}, {@code request_policy:all_shards})
 * @param keySpecs where the keys are, as Redis 7 key specifications; empty for a keyless command
 * @param docs what COMMAND DOCS adds to the summary and group
 * @param subcommands a container's subcommands (CLIENT, CONFIG...), named {@code container|name}
 */
public record CommandDetails(List<String> aclCategories, List<String> tips, List<KeySpec> keySpecs, Docs docs,
                             List<CommandSpec> subcommands) {

    public static final CommandDetails NONE = new CommandDetails(List.of(), List.of(), List.of(), Docs.NONE, List.of());

    public CommandDetails {
        aclCategories = List.copyOf(aclCategories);
        tips = List.copyOf(tips);
        keySpecs = List.copyOf(keySpecs);
        Objects.requireNonNull(docs);
        subcommands = List.copyOf(subcommands);
    }

    public CommandDetails withSubcommands(List<CommandSpec> specs) {
        return new CommandDetails(aclCategories, tips, keySpecs, docs, specs);
    }

    /**
     * A key specification: where the search for keys begins and how keys are found from there.
     *
     * @param flags Redis's key-spec flags as it spells them: {@code RO RW OW RM}, then {@code access update
     *              insert delete}, then {@code not_key incomplete variable_flags}
     * @param notes free text, or null
     */
    public record KeySpec(List<String> flags, BeginSearch beginSearch, FindKeys findKeys, String notes) {

        public KeySpec {
            flags = List.copyOf(flags);
            Objects.requireNonNull(beginSearch);
            Objects.requireNonNull(findKeys);
        }
    }

    /**
     * Where the key search begins: at a fixed argument index ({@code type} "index"), after a keyword
     * searched for from {@code startFrom} ("keyword"; a negative start searches backwards), or "unknown".
     */
    public record BeginSearch(String type, int index, String keyword, int startFrom) {

        public static BeginSearch index(int index) {
            return new BeginSearch("index", index, null, 0);
        }

        public static BeginSearch keyword(String keyword, int startFrom) {
            return new BeginSearch("keyword", 0, keyword, startFrom);
        }

        public static final BeginSearch UNKNOWN = new BeginSearch("unknown", 0, null, 0);
    }

    /**
     * How keys are found from the begin index: a "range" (last key relative to the begin, negative
     * from the end; step; limit), a "keynum" (an argument giving the count, the first key and the
     * step, all relative to the begin), or "unknown".
     */
    public record FindKeys(String type, int lastKey, int keyStep, int limit, int keyNumIndex, int firstKey) {

        public static FindKeys range(int lastKey, int keyStep, int limit) {
            return new FindKeys("range", lastKey, keyStep, limit, 0, 0);
        }

        public static FindKeys keynum(int keyNumIndex, int firstKey, int keyStep) {
            return new FindKeys("keynum", 0, keyStep, 0, keyNumIndex, firstKey);
        }

        public static final FindKeys UNKNOWN = new FindKeys("unknown", 0, 0, 0, 0, 0);
    }

    /**
     * COMMAND DOCS beyond summary and group; null and empty parts are left out of the reply.
     *
     * @param docFlags {@code deprecated}, {@code syscmd}
     * @param history changes by version
     * @param arguments the argument tree redis-cli builds its hints from
     */
    public record Docs(String since, String complexity, List<String> docFlags, String deprecatedSince,
                       String replacedBy, List<History> history, List<Argument> arguments) {

        public static final Docs NONE = new Docs(null, null, List.of(), null, null, List.of(), List.of());

        public Docs {
            docFlags = List.copyOf(docFlags);
            history = List.copyOf(history);
            arguments = List.copyOf(arguments);
        }
    }

    public record History(String version, String change) {
    }

    /**
     * One argument of COMMAND DOCS.
     *
     * @param type {@code string integer double key pattern unix-time pure-token oneof block}
     * @param keySpecIndex the key spec of a key argument, -1 otherwise
     * @param token the keyword before the value, or null; summary, since, deprecatedSince likewise
     * @param flags {@code optional multiple multiple_token}
     * @param arguments the alternatives of a {@code oneof}, the parts of a {@code block}
     */
    public record Argument(String name, String type, int keySpecIndex, String token, String summary, String since,
                           String deprecatedSince, List<String> flags, List<Argument> arguments) {

        public Argument {
            Objects.requireNonNull(name);
            Objects.requireNonNull(type);
            flags = List.copyOf(flags);
            arguments = List.copyOf(arguments);
        }
    }
}
