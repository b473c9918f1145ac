package org.ssbjca.inbound;

import jakarta.resource.spi.InvalidPropertyException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.ssbjca.api.TransientFailureException;
import org.ssbjca.api.UnrecoverableMessageException;

/**
 * What a failed delivery means, by the exception that failed it: an unrecoverable failure sets the message aside at
 * once, a transient one is retried without counting an attempt, any other counts one attempt. Read from the
 * activation properties {@code unrecoverableExceptions} and {@code transientExceptions} (comma-separated class names;
 * a class matches its subclasses) and from the api's {@link UnrecoverableMessageException} and
 * {@link TransientFailureException}.
 *
 * <p>The whole cause chain is looked at, since the container wraps what the bean throws (WildFly's EJB container
 * throws an {@code EJBException} whose cause is the bean's exception): first for a container's refusal to call a bean
 * at all ({@link #CONTAINER_REFUSALS}), which is transient whatever the lists say: the bean never saw the message, so
 * the failure is not the message's; then for the api's two types, which are the bean's own word; then, from the root
 * cause outward, for the listed classes, so that the failure nearest its origin decides. Classes are matched by name
 * along each exception's superclasses, so a class the adapter's class loader cannot see (the application's own, the
 * container's) still matches. Immutable and thread safe.
 */
public final class FailurePolicy {

    /** What a failed delivery means. */
    public enum Verdict {
        /** One more attempt toward the limit. */
        COUNTED,
        /** Set aside at once: no more attempts. */
        UNRECOVERABLE,
        /** Retried without counting an attempt. */
        TRANSIENT
    }

    /**
     * The exceptions by which a container refuses a call without making it: WildFly's, while the bean's component
     * shuts down (an undeployment, {@code WFLYEJB0421}) or while the server is suspended. Matched by name, as the
     * lists are.
     */
    static final Set<String> CONTAINER_REFUSALS =
            Set.of("org.jboss.as.ejb3.component.EJBComponentUnavailableException");

    /** No classes listed: only the api's types (and a container's refusal) decide. */
    static final FailurePolicy DEFAULT = new FailurePolicy(Set.of(), Set.of());

    /** The longest cause chain looked at. */
    private static final int MAX_DEPTH = 32;
    private static final String IDENTIFIER = "[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*";
    private static final Pattern CLASS_NAME = Pattern.compile(IDENTIFIER + "(\\." + IDENTIFIER + ")*"
            + "(\\$[\\p{javaJavaIdentifierPart}]+)*");

    private final Set<String> unrecoverable;
    private final Set<String> transientTypes;

    private FailurePolicy(Set<String> unrecoverable, Set<String> transientTypes) {
        this.unrecoverable = unrecoverable;
        this.transientTypes = transientTypes;
    }

    /**
     * Parses the two properties and checks that each name is an exception class one of {@code loaders} (or the
     * thread's context class loader, or the adapter's) can load; given no loader, checks their spelling only.
     *
     * @param spec the activation spec class, for the error
     * @param unrecoverableText {@code unrecoverableExceptions}: class names, comma-separated, or empty
     * @param transientText {@code transientExceptions}: class names, comma-separated, or empty
     * @param loaders where the classes may be: the bean's, the thread's, the adapter's (nulls skipped)
     * @return the policy
     * @throws InvalidPropertyException naming the property, the name it could not use and what it accepts
     */
    public static FailurePolicy of(Class<?> spec, String unrecoverableText, String transientText,
            ClassLoader... loaders) throws InvalidPropertyException {
        Set<String> u = names(spec, "unrecoverableExceptions", unrecoverableText, loaders);
        Set<String> t = names(spec, "transientExceptions", transientText, loaders);
        for (String name : u) {
            if (t.contains(name)) {
                throw ActivationValues.invalid(spec, "transientExceptions", "must not name a class that "
                        + "unrecoverableExceptions names, was '" + name + "' in both");
            }
        }
        return u.isEmpty() && t.isEmpty() ? DEFAULT : new FailurePolicy(u, t);
    }

    /**
     * Checks the names' spelling only (no class is loaded): what {@code validate()} can tell before the bean's
     * class loader is known.
     *
     * @param spec the activation spec class, for the error
     * @param property the property
     * @param text its text
     * @throws InvalidPropertyException naming the property and the text
     */
    static void checkSpelling(Class<?> spec, String property, String text) throws InvalidPropertyException {
        split(spec, property, text);
    }

    private static Set<String> names(Class<?> spec, String property, String text, ClassLoader... loaders)
            throws InvalidPropertyException {
        Set<String> names = split(spec, property, text);
        for (String name : loaders.length == 0 ? Set.<String>of() : names) {
            Class<?> type = load(name, loaders);
            if (type == null) {
                throw ActivationValues.invalid(spec, property, "must list exception classes the application or the "
                        + "adapter can load (comma-separated fully qualified names), but '" + name + "' was not "
                        + "found");
            }
            if (!Throwable.class.isAssignableFrom(type)) {
                throw ActivationValues.invalid(spec, property, "must list exception classes (subclasses of "
                        + "java.lang.Throwable), but '" + name + "' is not one");
            }
        }
        return names;
    }

    private static Set<String> split(Class<?> spec, String property, String text) throws InvalidPropertyException {
        Set<String> names = new LinkedHashSet<>();
        if (text == null || text.isBlank()) {
            return Collections.unmodifiableSet(names);
        }
        for (String part : text.split(",", -1)) { // -1: a trailing empty part is refused too
            String name = part.strip();
            if (!CLASS_NAME.matcher(name).matches()) {
                throw ActivationValues.invalid(spec, property, "must be fully qualified exception class names "
                        + "separated by commas (e.g. java.lang.IllegalArgumentException), was '" + text + "'");
            }
            names.add(name);
        }
        return Collections.unmodifiableSet(names);
    }

    private static Class<?> load(String name, ClassLoader... given) {
        List<ClassLoader> loaders = new ArrayList<>(java.util.Arrays.asList(given));
        loaders.add(Thread.currentThread().getContextClassLoader());
        loaders.add(FailurePolicy.class.getClassLoader());
        for (ClassLoader loader : loaders) {
            if (loader == null) {
                continue;
            }
            try {
                return Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // the next loader
            }
        }
        return null;
    }

    /**
     * Returns what the failure means.
     *
     * @param failure what failed the delivery (as the endpoint threw it), or null when it rolled back otherwise
     */
    public Verdict classify(Throwable failure) {
        List<Throwable> chain = chain(failure);
        for (Throwable t : chain) {
            if (isA(t, CONTAINER_REFUSALS)) {
                return Verdict.TRANSIENT;
            }
        }
        for (Throwable t : chain) {
            if (t instanceof UnrecoverableMessageException) {
                return Verdict.UNRECOVERABLE;
            }
            if (t instanceof TransientFailureException) {
                return Verdict.TRANSIENT;
            }
        }
        if (unrecoverable.isEmpty() && transientTypes.isEmpty()) {
            return Verdict.COUNTED;
        }
        for (int i = chain.size() - 1; i >= 0; i--) {
            for (Class<?> c = chain.get(i).getClass(); c != null; c = c.getSuperclass()) {
                if (unrecoverable.contains(c.getName())) {
                    return Verdict.UNRECOVERABLE;
                }
                if (transientTypes.contains(c.getName())) {
                    return Verdict.TRANSIENT;
                }
            }
        }
        return Verdict.COUNTED;
    }

    private static boolean isA(Throwable t, Set<String> names) {
        for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
            if (names.contains(c.getName())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns the exception that decided its verdict, else its root cause, for the error a dead letter carries.
     *
     * @param failure a failure, or null
     */
    static Throwable rootCause(Throwable failure) {
        List<Throwable> chain = chain(failure);
        return chain.isEmpty() ? null : chain.get(chain.size() - 1);
    }

    /** @return the failure and its causes, outermost first, each once, at most {@link #MAX_DEPTH} */
    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && chain.size() < MAX_DEPTH && seen.add(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }
}
