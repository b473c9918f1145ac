package org.ssbjca.it.delayed;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** The MDB of {@code DelayedSendIT}, two readers: records each message's body and the instant it arrived. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = DelayedSetup.TARGET_QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "2")
})
@ResourceAdapter("ssb-jca.rar")
public class DelayedArrivals implements BrokerMessageListener {

    /** An arrival: a body and when the bean got it. */
    public record Arrival(String body, Instant at) {
    }

    private static final List<Arrival> ARRIVED = new CopyOnWriteArrayList<>();

    @Override
    public void onMessage(BrokerMessage message) {
        ARRIVED.add(new Arrival(message.bodyAsText(), Instant.now()));
    }

    /** Returns the arrivals so far, in the order they came. */
    public static List<Arrival> arrived() {
        return List.copyOf(ARRIVED);
    }
}
