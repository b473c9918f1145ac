package org.ssbjca.backend;

import java.sql.SQLException;

/**
 * A piece of JDBC work that may throw {@link SQLException}, and the one way the backends turn that exception into the
 * API's exceptions, naming what failed.
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface SqlWork<T> {

    /**
     * Returns the result.
     *
     * @throws SQLException on a database error
     */
    T run() throws SQLException;

    /** Turns a database error into the exception the caller sees. */
    @FunctionalInterface
    interface Failure {
        /**
         * Returns the exception to throw.
         *
         * @param what what was being done, for the message
         * @param cause the database's error
         */
        RuntimeException of(String what, SQLException cause);
    }

    /** Work without a result. */
    @FunctionalInterface
    interface Action {
        /**
         * Does the work.
         *
         * @throws SQLException on a database error
         */
        void run() throws SQLException;
    }

    /**
     * Returns the work's result.
     *
     * @param what what the work does, for the message of a failure
     * @param work the work
     * @param failure turns a database error into the caller's exception
     * @param <T> the result type
     */
    static <T> T call(String what, SqlWork<T> work, Failure failure) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw failure.of(what, e);
        }
    }

    /**
     * Runs work that returns nothing, turning a database error into the caller's exception.
     *
     * @param what what the work does, for the message of a failure
     * @param action the work
     * @param failure turns a database error into the caller's exception
     */
    static void run(String what, Action action, Failure failure) {
        call(what, () -> {
            action.run();
            return null;
        }, failure);
    }
}
