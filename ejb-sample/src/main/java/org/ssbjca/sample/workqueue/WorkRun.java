package org.ssbjca.sample.workqueue;

import java.io.Serializable;
import java.util.List;
import org.ssbjca.api.Conversation;

/**
 * One batch of work: its id, written into every item and into the work log, and the dialogs ("channels") its items
 * travel on.
 *
 * @param runId the run's id
 * @param channels the initiator's sides of the dialogs WorkProducerService to WorkService
 */
public record WorkRun(String runId, List<Conversation> channels) implements Serializable {
}
