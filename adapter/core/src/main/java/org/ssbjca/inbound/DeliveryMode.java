package org.ssbjca.inbound;

/**
 * How an activation's readers deliver: where each delivery's transaction begins and ends. Chosen once, when the
 * activation starts ({@link #of}); every mode shares the steps of {@link DeliverySteps}.
 */
interface DeliveryMode {

    /**
     * One delivery transaction: RECEIVE, the bean's call, the end of the transaction, the books.
     *
     * @param steps the reader's connection and endpoint, with the shared steps
     * @throws Exception whatever the reader must treat as a failure of its connection or endpoint
     */
    void deliverOnce(DeliverySteps steps) throws Exception;

    /** Returns the mode's name, as the activation's start is logged. */
    String describe();

    /**
     * Returns receive-first when {@code commitBeforeDelivery} is set, else XA for a transacted bean, else local.
     *
     * @param settings the activation's settings
     * @param transacted whether the bean's listener method runs in the container's transaction
     */
    static DeliveryMode of(DeliverySettings settings, boolean transacted) {
        if (settings.commitBeforeDelivery()) {
            return new ReceiveFirstDelivery();
        }
        return transacted ? new XaDelivery() : new LocalDelivery();
    }
}
