package org.ssbjca.inbound;

import org.ssbjca.support.TaskEnd;

/** A reader of an activation (a queue's, a table's): a long-running work of the container's work manager. */
interface Reader extends Runnable {

    /** Returns its name, for logs and thread dumps. */
    String name();

    /** Asks it to stop; one that has no thread yet never runs. */
    void stop();

    /** Returns whether it was asked to stop. */
    boolean isStopped();

    /** Returns the end of its loop, reached once it has left its thread (or by a stop before it began). */
    TaskEnd end();

    /** Returns whether it waits for a thread of the work manager: scheduled, not begun, not stopped. */
    default boolean waiting() {
        return end().waiting();
    }
}
