package org.jboss.as.ejb3.component;

/**
 * A double of WildFly's exception of the same name (wildfly-ejb3, a subclass of {@code jakarta.ejb.EJBException},
 * itself a {@code RuntimeException}): what a message-driven bean's proxy throws, without calling the bean, while the
 * bean's component shuts down ({@code WFLYEJB0421}) or the server is suspended. The adapter knows it by its name.
 */
public class EJBComponentUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message as WildFly's {@code EjbLogger.componentIsShuttingDown()} words it */
    public EJBComponentUnavailableException(String message) {
        super(message);
    }
}
