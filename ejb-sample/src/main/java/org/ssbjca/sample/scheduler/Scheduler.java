package org.ssbjca.sample.scheduler;

import java.io.Serializable;
import org.ssbjca.api.Conversation;

/**
 * An open task scheduler: the initiator's side of its one dialog (seed 001's scheduler handle), who opened it, and
 * how many of its tasks may run at the same time. Pass it back to every {@link TaskScheduler} call.
 *
 * @param conversation the initiator's side of the dialog AsyncInitiatorService to AsyncTargetService
 * @param caller who opened it
 * @param concurrency how many of its tasks may run at once
 */
public record Scheduler(Conversation conversation, String caller, int concurrency) implements Serializable {

    /** @return the scheduler's id in the execution log: its conversation handle */
    public String id() {
        return conversation.handle().toString();
    }
}
