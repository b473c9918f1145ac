package org.ssbjca.support;

/**
 * The one rule for beginning the adapter's flight recorder events ({@link ReceiveEvent}, {@link WaitEvent},
 * {@link DeliveryEvent}).
 */
public final class FlightEvents {

    private FlightEvents() {
    }

    /**
     * @param event a new event
     * @param <E> its class
     * @return the event, begun now; null when no recording wants it, so that work begun before a recording started is
     *         never one of its events
     */
    public static <E extends jdk.jfr.Event> E begun(E event) {
        if (!event.isEnabled()) {
            return null;
        }
        event.begin();
        return event;
    }
}
