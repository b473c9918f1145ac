package org.ssbjca.it.delayed;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ScheduledSend;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/** Schedules and cancels sends of {@code DelayedSendIT}, each call in a container transaction of its own. */
@Stateless
public class DelayedSender {

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    /** Begins a dialog from the initiator to the target service. */
    public Conversation begin() {
        try (ServiceBrokerConnection c = factory.getConnection()) {
            return c.beginDialog(DelayedSetup.INITIATOR, DelayedSetup.TARGET, DelayedSetup.CONTRACT,
                    DialogOptions.defaults());
        }
    }

    /** Schedules {@code body} on the conversation {@code delay} from now; committed when this call returns. */
    public ScheduledSend schedule(Conversation conversation, String body, Duration delay) {
        try (ServiceBrokerConnection c = factory.getConnection()) {
            return c.send(conversation, DelayedSetup.REQUEST, body.getBytes(StandardCharsets.UTF_8), delay);
        }
    }

    /** Schedules {@code body}, then fails: the container rolls the transaction back. */
    public void scheduleThenRollBack(Conversation conversation, String body, Duration delay) {
        schedule(conversation, body, delay);
        throw new IllegalStateException("rolled back on purpose after scheduling " + body);
    }

    /** Cancels a scheduled send in a transaction of its own. */
    public boolean cancel(ScheduledSend scheduled) {
        try (ServiceBrokerConnection c = factory.getConnection()) {
            return c.cancel(scheduled);
        }
    }
}
