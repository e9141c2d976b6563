package dev.lacewing.core.server;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorChooserFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which worker a new connection goes to: the next in turn, passing over a worker that runs a
 * script past busy-reply-threshold. Such a worker reads none of its clients until the script ends,
 * so a client placed there could not even send SCRIPT KILL; Redis answers a client that connects
 * during a busy script (BUSY), and so does a free worker here. When every worker is busy, the
 * turn's worker is taken all the same.
 *
 * <p>Thread rule: the chooser is called by the acceptor thread (and by any caller of the group's
 * {@code next()}); the scripts are installed once, before the server listens.
 */
final class ConnectionPlacement implements EventExecutorChooserFactory {

    private volatile Scripts scripts;

    void scripts(Scripts scripts) {
        this.scripts = scripts;
    }

    @Override
    public EventExecutorChooser newChooser(EventExecutor[] workers) {
        AtomicLong turn = new AtomicLong();
        return () -> {
            EventExecutor next = workers[(int) (turn.getAndIncrement() % workers.length)];
            Scripts running = scripts;
            if (running == null || !running.busy()) {
                return next;
            }
            for (int tried = 0; tried < workers.length; tried++) {
                EventExecutor candidate = tried == 0 ? next : workers[(int) (turn.getAndIncrement() % workers.length)];
                if (!running.busyOn(candidate::inEventLoop)) {
                    return candidate;
                }
            }
            return next;
        };
    }
}
