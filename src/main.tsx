import './zod-config';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import './index.css';

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The built index.html holds the connect screen prerendered (src/prerender.tsx): take it over. The dev
// server's index.html has an empty root: render into it.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
