package org.ssbjca.inbound;

/**
 * Keeps a delivery turn's first failure while its transaction is ended and its outcome counted: what fails later
 * (the end of the transaction on a connection the turn lost, the count of a failed delivery) is added to it as
 * suppressed, so that the reader reports what went wrong first.
 */
final class TurnFailure {

    private TurnFailure() {
    }

    /**
     * Returns {@code first} with {@code next} suppressed in it, or {@code next} when there was none.
     *
     * @param first the failure kept so far, or null
     * @param next a later failure
     */
    static Throwable keep(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        if (first != next) {
            first.addSuppressed(next);
        }
        return first;
    }

    /**
     * @param failure an {@link Exception} or an {@link Error}, as caught by a turn
     * @throws Exception the failure
     */
    static void rethrow(Throwable failure) throws Exception {
        if (failure instanceof Error e) {
            throw e;
        }
        throw (Exception) failure;
    }
}
