import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { useStore } from './store';
import { applyTheme } from './store/ui.slice';
import './styles.css';
import './panels.css';

// Before the first paint, so a manual theme choice never flashes the system one.
applyTheme(useStore.getState().theme);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
