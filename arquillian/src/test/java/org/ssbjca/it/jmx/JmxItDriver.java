package org.ssbjca.it.jmx;

import java.util.List;

/** The driver the test deployment registers; sends go through an EJB, so each runs in its own JTA transaction. */
public final class JmxItDriver implements JmxItDriverMXBean {

    private final JmxItSender sender;

    JmxItDriver(JmxItSender sender) {
        this.sender = sender;
    }

    @Override
    public void send(String service, String body) {
        sender.send(service, body);
    }

    @Override
    public void hold(String queue) {
        DeliveryRecorder.hold(queue);
    }

    @Override
    public void release(String queue) {
        DeliveryRecorder.release(queue);
    }

    @Override
    public int concurrent(String queue) {
        return DeliveryRecorder.concurrent(queue);
    }

    @Override
    public int peak(String queue) {
        return DeliveryRecorder.peak(queue);
    }

    @Override
    public List<String> delivered(String queue) {
        return DeliveryRecorder.delivered(queue);
    }
}
