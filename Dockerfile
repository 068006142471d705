# The application image: api, worker, projector and the one-shot `migrate` of docker-compose.yml run from it.
# Code and built front ends only: secrets come from the environment, certificates from read-only mounts,
# keys and anchors from volumes (.dockerignore keeps .env, certs/ and .data/ out of the build context).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# The folders the named volumes mount over: created here owned by `node`, so a new volume is writable by it.
RUN npm run build \
 && mkdir -p /var/lib/ba-portal/keys /var/lib/ba-portal/audit \
 && chown -R node:node /var/lib/ba-portal
ENV NODE_ENV=production
USER node
