package dev.lacewing.core.command.server;

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
 * COMMAND INFO and COMMAND DOCS replies, derived from the command table as Redis derives them
 * from its JSON command specs: flags, key positions, ACL categories, key specs.
 */
final class CommandDescriptions {

    private CommandDescriptions() {
    }

    /** The 10-element array Redis 7 replies per command. */
    static void info(ReplyWriter reply, Command command) {
        CommandSpec spec = command.spec();
        reply.array(10);
        reply.bulk(spec.name());
        reply.integer(spec.arity());
        List<String> flags = new ArrayList<>();
        for (CommandFlag flag : CommandFlag.values()) {
            if (spec.has(flag)) {
                flags.add(flag.redisName());
            }
        }
        reply.set(flags.size());
        flags.forEach(reply::simple);
        boolean hasKeys = spec.scope() == KeyScope.KEYS && spec.firstKey() > 0;
        reply.integer(hasKeys ? spec.firstKey() : 0);
        reply.integer(hasKeys ? spec.lastKey() : 0);
        reply.integer(hasKeys ? spec.step() : 0);
        List<String> categories = aclCategories(spec);
        reply.set(categories.size());
        categories.forEach(category -> reply.simple("@" + category));
        reply.array(0);
        if (hasKeys) {
            reply.array(1);
            reply.map(3);
            reply.bulk("flags");
            reply.array(1);
            reply.simple(spec.has(CommandFlag.WRITE) ? "RW" : "RO");
            reply.bulk("begin_search");
            reply.map(2);
            reply.bulk("type");
            reply.bulk("index");
            reply.bulk("spec");
            reply.map(1);
            reply.bulk("index");
            reply.integer(spec.firstKey());
            reply.bulk("find_keys");
            reply.map(2);
            reply.bulk("type");
            reply.bulk("range");
            reply.bulk("spec");
            reply.map(3);
            reply.bulk("lastkey");
            reply.integer(spec.lastKey() < 0 ? spec.lastKey() : spec.lastKey() - spec.firstKey());
            reply.bulk("keystep");
            reply.integer(spec.step());
            reply.bulk("limit");
            reply.integer(0);
        } else {
            reply.array(0);
        }
        reply.array(0);
    }

    /** One name/documentation pair of COMMAND DOCS. */
    static void docs(ReplyWriter reply, Command command) {
        CommandSpec spec = command.spec();
        reply.bulk(spec.name());
        boolean module = !command.owner().equals("core");
        reply.map(module ? 3 : 2);
        reply.bulk("summary");
        reply.bulk(spec.summary());
        reply.bulk("group");
        reply.bulk(module ? "module" : spec.group());
        if (module) {
            reply.bulk("module");
            reply.bulk(command.owner());
        }
    }

    /** Redis's ACL categories in the order COMMAND INFO lists them (ACLCommandCategories). */
    private static final List<String> CATEGORY_ORDER = List.of("keyspace", "read", "write", "set", "sortedset",
        "list", "hash", "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow",
        "blocking", "dangerous", "connection", "transaction", "scripting");

    /** ACL categories as Redis assigns them from the group and the flags, in Redis's order. */
    static List<String> aclCategories(CommandSpec spec) {
        Set<String> categories = new HashSet<>();
        if (spec.has(CommandFlag.WRITE)) {
            categories.add("write");
        }
        if (spec.has(CommandFlag.READONLY)) {
            categories.add("read");
        }
        if (spec.has(CommandFlag.ADMIN)) {
            categories.add("admin");
            categories.add("dangerous");
        }
        categories.add(spec.has(CommandFlag.FAST) ? "fast" : "slow");
        switch (spec.group()) {
            case "string" -> categories.add("string");
            case "generic" -> categories.add("keyspace");
            case "connection" -> categories.add("connection");
            case "list" -> categories.add("list");
            default -> {
            }
        }
        List<String> ordered = new ArrayList<>(CATEGORY_ORDER);
        ordered.retainAll(categories);
        return ordered;
    }
}
