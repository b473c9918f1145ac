package org.ssbjca.api;

import java.util.List;

/**
 * The message listener interface of message-driven beans that take every message one RECEIVE returned for one
 * conversation group in a single call (at most {@code receiveBatchSize} messages, in queue order).
 *
 * <p>Transaction contract: as for {@link BrokerMessageListener}, but for the whole batch: a rollback puts every
 * message of the batch back.
 */
public interface ConversationGroupListener {

    /**
     * Handles the messages of one conversation group.
     *
     * @param messages the messages, in order; never empty, unmodifiable
     */
    void onMessages(List<BrokerMessage> messages);
}
