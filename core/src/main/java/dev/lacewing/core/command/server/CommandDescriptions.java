package dev.lacewing.core.command.server;

import dev.lacewing.api.CommandDetails;
import dev.lacewing.api.CommandDetails.Argument;
import dev.lacewing.api.CommandDetails.BeginSearch;
import dev.lacewing.api.CommandDetails.Docs;
import dev.lacewing.api.CommandDetails.FindKeys;
import dev.lacewing.api.CommandDetails.History;
import dev.lacewing.api.CommandDetails.KeySpec;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Command;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * COMMAND INFO and COMMAND DOCS replies, in Redis 7.0's layout, derived from the command table:
 * the spec's name, arity, flags and key positions, and its {@link CommandDetails} (key specs,
 * tips, ACL categories, docs, subcommands). A spec without details (a plugin's) is described from
 * its fields: one key spec from its key positions, ACL categories from its flags and group.
 *
 * <p>Stateless.
 */
public final class CommandDescriptions {

    private CommandDescriptions() {
    }

    /** The 10-element array Redis 7 replies per command, subcommands nested. */
    static void info(ReplyWriter reply, Command<?> command) {
        info(reply, command.spec());
    }

    private static void info(ReplyWriter reply, CommandSpec spec) {
        CommandDetails details = spec.details();
        reply.array(10);
        reply.bulk(spec.name());
        reply.integer(spec.arity());
        List<String> flags = new ArrayList<>();
        for (CommandFlag flag : CommandFlag.values()) {
            if (spec.has(flag) && flag.reported()) {
                flags.add(flag.redisName());
            }
        }
        if (spec.hasMovableKeys()) {
            // Redis reports it last, after the declared flags (CMD_MOVABLE_KEYS is computed from the key specs).
            flags.add("movablekeys");
        }
        reply.set(flags.size());
        flags.forEach(reply::simple);
        // A container's keys are its subcommands' (MEMORY's are MEMORY USAGE's).
        boolean hasKeys = spec.scope() == KeyScope.KEYS && spec.firstKey() > 0 && details.subcommands().isEmpty();
        reply.integer(hasKeys ? spec.firstKey() : 0);
        reply.integer(hasKeys ? spec.lastKey() : 0);
        reply.integer(hasKeys ? spec.step() : 0);
        List<String> categories = aclCategories(spec);
        reply.set(categories.size());
        categories.forEach(category -> reply.simple("@" + category));
        reply.set(details.tips().size());
        details.tips().forEach(reply::bulk);
        List<KeySpec> keySpecs = details.keySpecs();
        if (keySpecs.isEmpty() && hasKeys && details == CommandDetails.NONE) {
            keySpecs = List.of(new KeySpec(List.of(spec.has(CommandFlag.WRITE) ? "RW" : "RO"),
                BeginSearch.index(spec.firstKey()), FindKeys.range(spec.lastKey() < 0 ? spec.lastKey()
                    : spec.lastKey() - spec.firstKey(), spec.step(), 0), null));
        }
        reply.set(keySpecs.size());
        keySpecs.forEach(keySpec -> keySpec(reply, keySpec));
        // Redis replies an empty set for a plain command, an array for a container's subcommands.
        if (details.subcommands().isEmpty()) {
            reply.set(0);
        } else {
            reply.array(details.subcommands().size());
            details.subcommands().forEach(subcommand -> info(reply, subcommand));
        }
    }

    private static void keySpec(ReplyWriter reply, KeySpec keySpec) {
        reply.map(keySpec.notes() == null ? 3 : 4);
        if (keySpec.notes() != null) {
            reply.bulk("notes");
            reply.bulk(keySpec.notes());
        }
        reply.bulk("flags");
        reply.set(keySpec.flags().size());
        keySpec.flags().forEach(reply::simple);
        BeginSearch begin = keySpec.beginSearch();
        reply.bulk("begin_search");
        reply.map(2);
        reply.bulk("type");
        reply.bulk(begin.type());
        reply.bulk("spec");
        switch (begin.type()) {
            case "index" -> {
                reply.map(1);
                reply.bulk("index");
                reply.integer(begin.index());
            }
            case "keyword" -> {
                reply.map(2);
                reply.bulk("keyword");
                reply.bulk(begin.keyword());
                reply.bulk("startfrom");
                reply.integer(begin.startFrom());
            }
            default -> reply.map(0);
        }
        FindKeys find = keySpec.findKeys();
        reply.bulk("find_keys");
        reply.map(2);
        reply.bulk("type");
        reply.bulk(find.type());
        reply.bulk("spec");
        switch (find.type()) {
            case "range" -> {
                reply.map(3);
                reply.bulk("lastkey");
                reply.integer(find.lastKey());
                reply.bulk("keystep");
                reply.integer(find.keyStep());
                reply.bulk("limit");
                reply.integer(find.limit());
            }
            case "keynum" -> {
                reply.map(3);
                reply.bulk("keynumidx");
                reply.integer(find.keyNumIndex());
                reply.bulk("firstkey");
                reply.integer(find.firstKey());
                reply.bulk("keystep");
                reply.integer(find.keyStep());
            }
            default -> reply.map(0);
        }
    }

    /** One name/documentation pair of COMMAND DOCS, fields in Redis's order, empty ones left out. */
    static void docs(ReplyWriter reply, Command<?> command) {
        docs(reply, command.spec(), command.owner().equals("core") ? null : command.owner());
    }

    private static void docs(ReplyWriter reply, CommandSpec spec, String module) {
        Docs docs = spec.details().docs();
        List<CommandSpec> subcommands = spec.details().subcommands();
        reply.bulk(spec.name());
        int fields = 2 + count(docs.since()) + count(docs.complexity()) + count(module) + count(docs.docFlags())
            + count(docs.deprecatedSince()) + count(docs.replacedBy()) + count(docs.history())
            + count(docs.arguments()) + count(subcommands);
        reply.map(fields);
        reply.bulk("summary");
        reply.bulk(spec.summary());
        field(reply, "since", docs.since());
        reply.bulk("group");
        reply.bulk(module != null ? "module" : spec.group());
        field(reply, "complexity", docs.complexity());
        field(reply, "module", module);
        if (!docs.docFlags().isEmpty()) {
            reply.bulk("doc_flags");
            reply.set(docs.docFlags().size());
            docs.docFlags().forEach(reply::simple);
        }
        field(reply, "deprecated_since", docs.deprecatedSince());
        field(reply, "replaced_by", docs.replacedBy());
        if (!docs.history().isEmpty()) {
            reply.bulk("history");
            reply.set(docs.history().size());
            for (History entry : docs.history()) {
                reply.array(2);
                reply.bulk(entry.version());
                reply.bulk(entry.change());
            }
        }
        if (!docs.arguments().isEmpty()) {
            reply.bulk("arguments");
            arguments(reply, docs.arguments());
        }
        if (!subcommands.isEmpty()) {
            reply.bulk("subcommands");
            reply.map(subcommands.size());
            subcommands.forEach(subcommand -> docs(reply, subcommand, module));
        }
    }

    private static void arguments(ReplyWriter reply, List<Argument> arguments) {
        reply.array(arguments.size());
        for (Argument argument : arguments) {
            int fields = 2 + (argument.keySpecIndex() >= 0 ? 1 : 0) + count(argument.token())
                + count(argument.summary()) + count(argument.since()) + count(argument.deprecatedSince())
                + count(argument.flags()) + count(argument.arguments());
            reply.map(fields);
            field(reply, "name", argument.name());
            field(reply, "type", argument.type());
            if (argument.keySpecIndex() >= 0) {
                reply.bulk("key_spec_index");
                reply.integer(argument.keySpecIndex());
            }
            field(reply, "token", argument.token());
            field(reply, "summary", argument.summary());
            field(reply, "since", argument.since());
            field(reply, "deprecated_since", argument.deprecatedSince());
            if (!argument.flags().isEmpty()) {
                reply.bulk("flags");
                reply.set(argument.flags().size());
                argument.flags().forEach(reply::simple);
            }
            if (!argument.arguments().isEmpty()) {
                reply.bulk("arguments");
                arguments(reply, argument.arguments());
            }
        }
    }

    private static void field(ReplyWriter reply, String name, String value) {
        if (value != null) {
            reply.bulk(name);
            reply.bulk(value);
        }
    }

    private static int count(Object value) {
        return value == null || value instanceof List<?> list && list.isEmpty() ? 0 : 1;
    }

    /** Redis's ACL categories in the order COMMAND INFO lists them (ACLCommandCategories). */
    public static final List<String> CATEGORY_ORDER = List.of("keyspace", "read", "write", "set", "sortedset",
        "list", "hash", "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow",
        "blocking", "dangerous", "connection", "transaction", "scripting");

    /**
     * ACL categories as Redis's setImplicitACLCategories gives them: the declared ones, plus those
     * the flags imply (write, read, admin and dangerous, pubsub, fast, blocking; slow when not fast).
     * A spec without details declares its group's category.
     */
    public static List<String> aclCategories(CommandSpec spec) {
        Set<String> categories = new HashSet<>(spec.details().aclCategories());
        if (spec.details() == CommandDetails.NONE) {
            switch (spec.group()) {
                case "string" -> categories.add("string");
                case "generic" -> categories.add("keyspace");
                case "connection" -> categories.add("connection");
                case "list" -> categories.add("list");
                default -> {
                }
            }
        }
        if (spec.has(CommandFlag.WRITE)) {
            categories.add("write");
        }
        // setImplicitACLCategories: scripting commands (EVAL_RO, FCALL_RO) are not in @read.
        if (spec.has(CommandFlag.READONLY) && !categories.contains("scripting")) {
            categories.add("read");
        }
        if (spec.has(CommandFlag.ADMIN)) {
            categories.add("admin");
            categories.add("dangerous");
        }
        if (spec.has(CommandFlag.PUBSUB)) {
            categories.add("pubsub");
        }
        if (spec.has(CommandFlag.FAST)) {
            categories.add("fast");
        }
        if (spec.has(CommandFlag.BLOCKING)) {
            categories.add("blocking");
        }
        if (!categories.contains("fast")) {
            categories.add("slow");
        }
        List<String> ordered = new ArrayList<>(CATEGORY_ORDER);
        ordered.retainAll(categories);
        return ordered;
    }
}
