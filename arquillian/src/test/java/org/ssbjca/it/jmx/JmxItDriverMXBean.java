package org.ssbjca.it.jmx;

import java.util.List;

/**
 * How the client-side {@code JmxIT} drives the test deployment in the server, over the same remote JMX connection
 * it uses for the adapter's MBeans: {@value #NAME}.
 */
public interface JmxItDriverMXBean {

    /** The driver's JMX name. */
    String NAME = "org.ssbjca.it:type=JmxItDriver";

    /**
     * Begins a dialog to a service and sends one message on it, committed: each call makes a conversation group.
     *
     * @param service a target service ({@link JmxItSetup})
     * @param body the text
     */
    void send(String service, String body);

    /** @param queue deliveries from this queue wait until {@link #release} */
    void hold(String queue);

    /** @param queue lets held deliveries go on */
    void release(String queue);

    /**
     * @param queue a queue
     * @return deliveries in progress now
     */
    int concurrent(String queue);

    /**
     * @param queue a queue
     * @return the most deliveries that were in progress at once
     */
    int peak(String queue);

    /**
     * @param queue a queue
     * @return the texts delivered, in the order the deliveries started
     */
    List<String> delivered(String queue);
}
