package dev.lacewing.core.command;

import dev.lacewing.api.CommandContext;

/**
 * The body of one of core's own commands that needs more than the api's context gives: the
 * server's context type {@code C} (core's {@code CoreContext}), with its connection and server-wide
 * state typed. Dispatch hands every command the context it has as that type, so no handler casts
 * the api's {@code client()} or {@code server()}; a plugin's handler stays a
 * {@link dev.lacewing.api.CommandHandler}.
 *
 * @param <C> the context type of the server that runs the command
 */
@FunctionalInterface
public interface ContextHandler<C extends CommandContext> {

    void execute(C context);
}
