package org.ssbjca.support;

/**
 * The one rule for beginning the adapter's flight recorder events ({@link ReceiveEvent}, {@link WaitEvent},
 * {@link DeliveryEvent}, {@link ConnectEvent}).
 */
public final class FlightEvents {

    private FlightEvents() {
    }

    /**
     * Returns the event, begun now; null when no recording wants it, so that work begun before a recording started is
     * never one of its events.
     *
     * @param event a new event
     * @param <E> its class
     */
    public static <E extends jdk.jfr.Event> E begun(E event) {
        if (!event.isEnabled()) {
            return null;
        }
        event.begin();
        return event;
    }

    /**
     * Ends an event and commits it with its fields if the recording wants one that long.
     *
     * @param event what {@link #begun} returned, or null
     * @param fields sets the event's fields, called only when it is recorded
     * @param <E> its class
     */
    public static <E extends jdk.jfr.Event> void ended(E event, java.util.function.Consumer<? super E> fields) {
        if (event == null) {
            return;
        }
        event.end();
        if (event.shouldCommit()) {
            fields.accept(event);
            event.commit();
        }
    }
}
