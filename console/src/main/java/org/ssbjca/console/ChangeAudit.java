package org.ssbjca.console;

import jakarta.json.JsonValue;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;
import java.security.Principal;
import java.util.Set;

/**
 * Names the user of every change made through the API: each POST, PUT and DELETE that reaches it, done or refused, is
 * logged once ({@code SSBJCA0150}) with the console's authenticated user, the path, the JSON body and the status
 * answered. The adapter's own lines for the same action ({@code SSBJCA0104}, {@code SSBJCA0115}) follow from the
 * MXBean call, which carries no user.
 */
@Provider
public class ChangeAudit implements ContainerResponseFilter {

    private static final Set<String> CHANGES = Set.of("POST", "PUT", "DELETE");

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (!CHANGES.contains(request.getMethod())) {
            return;
        }
        Principal user = request.getSecurityContext() == null ? null
                : request.getSecurityContext().getUserPrincipal();
        Object body = request.getProperty(BodyCheck.READ);
        String query = request.getUriInfo().getRequestUri().getRawQuery();
        ConsoleLog.change(user == null ? null : user.getName(), request.getMethod(),
                request.getUriInfo().getPath(false) + (query == null ? "" : "?" + query),
                body instanceof JsonValue json ? json.toString() : null, response.getStatus());
    }
}
