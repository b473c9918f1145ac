package org.ssbjca.management;

import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;
import org.ssbjca.backend.FailedDelivery;
import org.ssbjca.inbound.EndpointActivation;

/** The broker doctor's operations of an activation's MXBean: the transmission queue, the suspect, enabling. */
final class DoctorOperations {

    private final EndpointActivation activation;

    DoctorOperations(EndpointActivation activation) {
        this.activation = activation;
    }

    List<StuckTransmissionInfo> stuckTransmissions(int max) {
        if (max < 1 || max > 1000) {
            throw new IllegalArgumentException("max must be between 1 and 1000, was " + max);
        }
        return ShortLivedConnection.read(activation.database(), "listing the transmission queue",
                c -> activation.database().broker().doctor(c).stuckTransmissions(max))
                .stream().map(StuckTransmissionInfo::of).collect(Collectors.toList());
    }

    long stuckTransmissionCount() {
        return ShortLivedConnection.read(activation.database(), "counting the stuck transmissions",
                c -> activation.database().broker().doctor(c).stuckTransmissionCount());
    }

    String lastFailedDelivery() {
        FailedDelivery d = ShortLivedConnection.read(activation.database(), "reading the last failed delivery of "
                + activation.queue(), c -> activation.database().broker().doctor(c)
                        .lastFailedDelivery(activation.queue()));
        return d == null ? null : "conversation " + d.conversation() + " message " + d.sequence() + ": "
                + d.attempts() + " failed deliveries, the last at " + d.lastAttempt() + ": " + d.lastError();
    }

    void enableQueue() {
        try {
            activation.enableQueue();
        } catch (SQLException | RuntimeException e) {
            throw ShortLivedConnection.forClient("enabling queue " + activation.queue(), e);
        }
    }
}
