package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.TaskEnd;

/**
 * Moves the rest of one queue's backlog in {@code ssb.transmission_queue} onto the queue, after a reader or the repair
 * pass moved its first page ({@link Transmissions}): a page of {@value Transmissions#PAGE} rows at a time, each page a
 * transaction of its own, committed (and so delivered) before the next is read, on a connection of its own and a
 * thread of the broker's {@link org.ssbjca.backend.BackgroundRunner} (a work of the container's long-running pool in
 * WildFly). No reader waits for it, and no transaction holds more than a page.
 *
 * <p>It ends when the queue has no transmissions left, is disabled again or no longer exists; when a page failed
 * {@value #MAX_FAILURES} times in a row (each failure rolls that page back alone, the pages before stay moved; logged
 * {@code SSBJCA0122}, and the next repair pass moves a page and starts another move); when another mover (the repair
 * pass or a move of another node, which take the queue in turns with it, a page each) has held the queue for
 * {@value Housekeeping#REPAIR_MILLIS} ms; or when its broker closes, between two pages: it is never interrupted, a page
 * either commits or rolls back. What it moved is logged once, at its end ({@code SSBJCA0121}).
 */
final class BacklogMove implements Runnable {

    /** The log of the moves of transmissions, whichever mover. */
    private static final AdapterLog LOG = Transmissions.LOG;
    /**
     * How many failures of a page in a row end the move: a page fails when a row it needs stays locked for more than
     * {@value Transmissions#BACKGROUND_LOCK_WAIT_MILLIS} ms (a delivery that replied on the conversation holds its
     * endpoint until it commits; the move holds no reader, so it waits that long), or when its connection is lost; it
     * is tried again after 0.2, 0.4, 0.8 and 1.6 s ({@code SSBJCA0123} at debug), on a new connection when the
     * connection was lost, else on the same.
     */
    static final int MAX_FAILURES = 5;

    private final Transmissions transmissions;
    private final PortableBroker broker;
    private final String queue;
    private final TaskEnd end = new TaskEnd();
    private volatile boolean stopped;

    /**
     * @param transmissions what moves a page, and is told when this move ends
     * @param broker the broker
     * @param queue the queue whose backlog it moves
     */
    BacklogMove(Transmissions transmissions, PortableBroker broker, String queue) {
        this.transmissions = transmissions;
        this.broker = broker;
        this.queue = queue;
    }

    @Override
    public void run() {
        if (!end.begin()) {
            return; // stopped, or refused, before it had a thread: it never runs
        }
        int moved = 0;
        int dropped = 0;
        Connection own = null;
        try {
            long heldSince = 0;
            int failures = 0;
            while (!stopped) {
                Transmissions.Moved page;
                boolean due;
                try {
                    if (own == null) {
                        own = broker.source().open();
                        own.setAutoCommit(true);
                    }
                    page = transmissions.movePageInBackground(own, queue);
                    due = page.moved() + page.dropped() > 0
                            || Jdbc.exists(own, broker.sql().transmissionsDueTo, queue);
                } catch (SQLException | RuntimeException e) {
                    if (lost(e)) {
                        own = closed(own); // opened again for the next try
                    }
                    if (++failures >= MAX_FAILURES) {
                        LOG.transmissionsNotMoved(e, queue, e.getMessage());
                        break;
                    }
                    long delay = (long) Transmissions.LOCK_WAIT_MILLIS << (failures - 1);
                    LOG.transmissionPageFailed(queue, e.getMessage(), failures, delay);
                    Thread.sleep(delay);
                    continue;
                }
                failures = 0;
                moved += page.moved();
                dropped += page.dropped();
                if (page.moved() + page.dropped() > 0) {
                    heldSince = 0;
                } else if (!due) {
                    break; // none left, or the queue is disabled again or gone
                } else {
                    // another mover holds the queue for its page; then it is this move's turn again
                    long now = System.nanoTime();
                    if (heldSince == 0) {
                        heldSince = now;
                    } else if (now - heldSince > TimeUnit.MILLISECONDS.toNanos(Housekeeping.REPAIR_MILLIS)) {
                        break;
                    }
                    Thread.sleep(Transmissions.LOCK_WAIT_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closed(own);
            if (moved > 0 || dropped > 0) {
                LOG.transmissionsMoved(moved, queue, dropped);
            }
            transmissions.ended(queue, this);
            end.reached();
        }
    }

    /**
     * @return whether the failure may have lost the connection: the database said so, or it is no database error
     *         (the page rolled back; a lock wait that timed out leaves the connection as good as before)
     */
    private boolean lost(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return broker.connectionLost(sql);
            }
        }
        return true;
    }

    /** Closes the move's connection, if it has one; a failure to close is of no consequence. */
    private static Connection closed(Connection own) {
        if (own != null) {
            try {
                own.close();
            } catch (SQLException e) {
                // discarded: the connection is given up either way
            }
        }
        return null;
    }

    /** Asks the move to stop after the page it moves now; one that has not begun never will. */
    void stop() {
        stopped = true;
        end.dropIfWaiting();
    }

    /** Returns the queue whose backlog it moves. */
    String queue() {
        return queue;
    }

    /** Returns the move's end, reached once it left its thread, or by a stop before it began. */
    TaskEnd end() {
        return end;
    }
}
